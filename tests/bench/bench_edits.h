/* bench_edits: the deterministic edit scripts of the latency benchmarks,
 * shared by bench-tool (in process) and lsp-latency (over pipes) so both
 * apply exactly the same edits.
 *
 * BENCH_EDIT_CHAR types " # ok42x" one character at a time at the end of a
 * random indented line (inside a function or class body, where the latency
 * targets are set), then deletes it again one character at a time
 * (single-character edits; the file returns to its original text every 16
 * edits). BENCH_EDIT_LINE duplicates a random indented line (inserting a
 * whole line with its indentation) and, on the next edit, deletes the copy
 * again; the
 * line holds an even number of triple quotes, so the copy leaves the rest
 * of the file's tokens as they were. BENCH_EDIT_STRING does the same with
 * a line holding an odd number (a docstring's opening or closing line):
 * the copy turns the rest of the file from code into string and back, so
 * everything after it is parsed and analyzed again, whatever the analyzer.
 * BENCH_EDIT_IMPORT does the same with the file's first `import` line: an
 * edit of the import block, which changes the file's facts.
 * Header-only: everything is static. Positions are given both as byte
 * offsets and as LSP (line, UTF-16 character). */
#ifndef ASC_BENCH_EDITS_H
#define ASC_BENCH_EDITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum { BENCH_EDIT_CHAR, BENCH_EDIT_LINE, BENCH_EDIT_IMPORT, BENCH_EDIT_STRING } BenchEditMode;

typedef struct {
  size_t start, end;        /* bytes replaced */
  const char *text;         /* inserted (borrowed from the generator) */
  size_t len;
  uint32_t line, character; /* LSP start (UTF-16) */
  uint32_t end_line, end_character;
} BenchEdit;

typedef struct {
  BenchEditMode mode;
  uint64_t rng;
  int phase;        /* CHAR: 0..13; LINE, IMPORT: 0 insert, 1 delete */
  size_t at;        /* CHAR: insertion point; LINE: start of the copy */
  size_t copy_len;  /* LINE: bytes of the inserted copy */
  char buf[4096];
} BenchEdits;

static const char bench_edits__word[] = " # ok42x";

static inline uint64_t bench_edits__rand(BenchEdits *g) {
  g->rng ^= g->rng << 13;
  g->rng ^= g->rng >> 7;
  g->rng ^= g->rng << 17;
  return g->rng;
}

static inline void bench_edits_init(BenchEdits *g, BenchEditMode mode, uint64_t seed) {
  memset(g, 0, sizeof *g);
  g->mode = mode;
  g->rng = seed * 2654435761u + 88172645463325252ull;
}

/* (line, UTF-16 character) of byte offset `off`. */
static inline void bench_edits__pos(const char *t, size_t off, uint32_t *line, uint32_t *ch) {
  uint32_t l = 0;
  size_t ls = 0;
  for (size_t i = 0; i < off; i++)
    if (t[i] == '\n') {
      l++;
      ls = i + 1;
    }
  uint32_t c = 0;
  for (size_t i = ls; i < off; i++) {
    unsigned char b = (unsigned char)t[i];
    if ((b & 0xC0) == 0x80) continue;
    c += b >= 0xF0 ? 2 : 1;
  }
  *line = l;
  *ch = c;
}

/* Triple quotes (\"\"\" and ''') on line t[s, e). */
static inline int bench_edits__triples(const char *t, size_t s, size_t e) {
  int n = 0;
  for (size_t i = s; i + 3 <= e; i++)
    if ((t[i] == '"' || t[i] == '\'') && t[i + 1] == t[i] && t[i + 2] == t[i]) {
      n++;
      i += 2;
    }
  return n;
}

/* A random line start and its end (before '\n') with a non-empty line;
 * `parity` 1: a line holding an odd number of triple quotes, 0: an even
 * number (a tokenization-neutral copy), -1: any; `indented`: only a line
 * starting with a space or a tab (a statement of a body, never one of the
 * module's: an import or a top-level definition is a file-level edit). */
static inline void bench_edits__pick(BenchEdits *g, const char *t, size_t len, int parity, bool indented, size_t *ls,
                                     size_t *le) {
  for (int tries = 0; tries < 100000; tries++) {
    size_t off = len ? (size_t)(bench_edits__rand(g) % len) : 0;
    size_t s = off;
    while (s > 0 && t[s - 1] != '\n') s--;
    size_t e = off;
    while (e < len && t[e] != '\n') e++;
    if (e > s && e - s < sizeof g->buf - 2 && (parity < 0 || bench_edits__triples(t, s, e) % 2 == parity) &&
        (!indented || t[s] == ' ' || t[s] == '\t')) {
      *ls = s;
      *le = e;
      return;
    }
  }
  *ls = *le = len;
}

/* The first line starting with "import " (or the first line). */
static inline void bench_edits__first_import(const char *t, size_t len, size_t *ls, size_t *le) {
  size_t s = 0;
  while (s < len && !(strncmp(t + s, "import ", 7) == 0 && (s == 0 || t[s - 1] == '\n'))) {
    const char *nl = memchr(t + s, '\n', len - s);
    s = nl ? (size_t)(nl - t) + 1 : len;
  }
  if (s >= len) s = 0;
  size_t e = s;
  while (e < len && t[e] != '\n' && e - s < 4000) e++;
  *ls = s;
  *le = e;
}

/* The next edit for the current text t[0, len). */
static inline void bench_edits_next(BenchEdits *g, const char *t, size_t len, BenchEdit *e) {
  memset(e, 0, sizeof *e);
  if (g->mode == BENCH_EDIT_CHAR) {
    int n = (int)(sizeof bench_edits__word - 1);
    if (g->phase == 0) {
      size_t ls, le;
      bench_edits__pick(g, t, len, -1, true, &ls, &le);
      g->at = le;
    }
    if (g->phase < n) { /* type one more character */
      e->start = e->end = g->at + (size_t)g->phase;
      e->text = bench_edits__word + g->phase;
      e->len = 1;
    } else { /* backspace */
      size_t k = (size_t)(2 * n - g->phase); /* characters left */
      e->start = g->at + k - 1;
      e->end = g->at + k;
      e->text = "";
      e->len = 0;
    }
    g->phase = (g->phase + 1) % (2 * n);
  } else {
    if (g->phase == 0) {
      size_t ls, le;
      if (g->mode == BENCH_EDIT_IMPORT) bench_edits__first_import(t, len, &ls, &le);
      else bench_edits__pick(g, t, len, g->mode == BENCH_EDIT_STRING, g->mode == BENCH_EDIT_LINE, &ls, &le);
      memcpy(g->buf, t + ls, le - ls);
      g->buf[le - ls] = '\n';
      g->copy_len = le - ls + 1;
      g->at = ls;
      e->start = e->end = ls;
      e->text = g->buf;
      e->len = g->copy_len;
    } else {
      e->start = g->at;
      e->end = g->at + g->copy_len;
      e->text = "";
      e->len = 0;
    }
    g->phase ^= 1;
  }
  bench_edits__pos(t, e->start, &e->line, &e->character);
  bench_edits__pos(t, e->end, &e->end_line, &e->end_character);
}

#endif
