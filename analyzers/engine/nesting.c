/* nesting: see nesting.h. One pass with a small state machine: code, a
 * comment, or a string literal (its quote, whether triple, raw or f). */
#include "analyzers/engine/nesting.h"

#include <string.h>

typedef struct {
  const char *t;
  size_t len, i;
  NestingSyntax syn;
  size_t depth, max, limit;
} Scan;

static bool nesting__ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void nesting__bracket(Scan *s, char c) {
  if (c == '(' || c == '[' || c == '{') {
    if (++s->depth > s->max) s->max = s->depth;
  } else if ((c == ')' || c == ']' || c == '}') && s->depth > 0) {
    s->depth--;
  }
}

/* Whether the Python string whose quote is at i has an f (or t) prefix:
 * its brackets count. Raw strings still end only at an unescaped quote. */
static bool nesting__formatted(const Scan *s) {
  if (s->syn != NESTING_PYTHON) return false;
  size_t k = s->i;
  while (k > 0 && nesting__ident(s->t[k - 1])) k--;
  if (s->i - k > 3) return false; /* an identifier, not a prefix */
  bool fmt = false;
  for (size_t j = k; j < s->i; j++) {
    char c = s->t[j];
    if (c == 'f' || c == 'F' || c == 't' || c == 'T') fmt = true;
    else if (!strchr("rRbBuU", c)) return false;
  }
  return fmt;
}

/* Skips the string literal opening at s->i. */
static void nesting__string(Scan *s) {
  char q = s->t[s->i];
  bool fmt = nesting__formatted(s);
  bool raw = s->syn == NESTING_TOML && q == '\''; /* TOML literal strings have no escapes */
  bool triple = s->syn != NESTING_C && s->i + 2 < s->len && s->t[s->i + 1] == q && s->t[s->i + 2] == q;
  s->i += triple ? 3 : 1;
  while (s->i < s->len) {
    char c = s->t[s->i];
    if (c == '\\' && !raw && s->i + 1 < s->len) {
      s->i += 2;
      continue;
    }
    if (c == q && (!triple || (s->i + 2 < s->len && s->t[s->i + 1] == q && s->t[s->i + 2] == q))) {
      s->i += triple ? 3 : 1;
      return;
    }
    if (c == '\n' && !triple) { /* an unterminated one-line string ends with its line */
      s->i++;
      return;
    }
    if (fmt) nesting__bracket(s, c);
    s->i++;
  }
}

static void nesting__comment(Scan *s) {
  if (s->syn == NESTING_C && s->t[s->i + 1] == '*') {
    const char *end = NULL;
    for (size_t k = s->i + 2; k + 1 < s->len && !end; k++)
      if (s->t[k] == '*' && s->t[k + 1] == '/') end = s->t + k + 2;
    s->i = end ? (size_t)(end - s->t) : s->len;
    return;
  }
  const char *nl = memchr(s->t + s->i, '\n', s->len - s->i);
  s->i = nl ? (size_t)(nl - s->t) + 1 : s->len;
}

static size_t nesting__scan(const char *text, size_t len, NestingSyntax syn, size_t limit) {
  Scan s = {text, len, 0, syn, 0, 0, limit};
  while (s.i < s.len && s.max <= s.limit) {
    char c = text[s.i];
    bool hash = syn != NESTING_C && c == '#';
    bool slash = syn == NESTING_C && c == '/' && s.i + 1 < len && (text[s.i + 1] == '/' || text[s.i + 1] == '*');
    if (hash || slash) {
      nesting__comment(&s);
    } else if (c == '"' || c == '\'') {
      nesting__string(&s);
    } else {
      nesting__bracket(&s, c);
      s.i++;
    }
  }
  return s.max;
}

size_t nesting_depth(const char *text, size_t len, NestingSyntax syn) { return nesting__scan(text, len, syn, (size_t)-1); }

bool nesting_too_deep(const char *text, size_t len, NestingSyntax syn) {
  return nesting__scan(text, len, syn, NESTING_MAX_DEPTH) > NESTING_MAX_DEPTH;
}

bool nesting_file_too_deep(FileKind kind, const char *text, size_t len) {
  switch (kind) {
  case FILE_PYTHON: return nesting_too_deep(text, len, NESTING_PYTHON);
  case FILE_CUDA: return nesting_too_deep(text, len, NESTING_C);
  case FILE_PYPROJECT: return nesting_too_deep(text, len, NESTING_TOML);
  default: return false;
  }
}

#define NESTING__STR(x) #x
#define NESTING__XSTR(x) NESTING__STR(x)

const char *nesting_note(void) { return "skipped, brackets nested more than " NESTING__XSTR(NESTING_MAX_DEPTH) " deep"; }
