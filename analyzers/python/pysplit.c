#include "analyzers/python/pysplit.h"

#include <stdbool.h>
#include <string.h>

/* Byte i ends a line: '\n', or a '\r' not followed by '\n'. */
static bool pysplit__eol(const char *t, size_t len, size_t i) {
  return t[i] == '\n' || (t[i] == '\r' && (i + 1 >= len || t[i + 1] != '\n'));
}

static bool pysplit__ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (unsigned char)c >= 0x80;
}

/* The line at t[0, n) starts with keyword `kw` (not a longer name). */
static bool pysplit__keyword(const char *t, size_t n, const char *kw) {
  size_t k = strlen(kw);
  return n >= k && memcmp(t, kw, k) == 0 && (n == k || !pysplit__ident(t[k]));
}

/* A clause that continues the statement before it. */
static bool pysplit__clause(const char *t, size_t n) {
  return pysplit__keyword(t, n, "else") || pysplit__keyword(t, n, "elif") || pysplit__keyword(t, n, "except") ||
         pysplit__keyword(t, n, "finally");
}

/* A line no open bracket can continue. */
static bool pysplit__opens_statement(const char *t, size_t n) {
  return pysplit__keyword(t, n, "def") || pysplit__keyword(t, n, "class") || pysplit__keyword(t, n, "import") ||
         pysplit__keyword(t, n, "from");
}

static bool pysplit__code(char c) {
  return !(c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n' || c == '#');
}

typedef struct {
  size_t depth;   /* open brackets */
  char quote;     /* the open string's quote, or 0 */
  bool triple;    /* the open string is triple-quoted */
  bool cont;      /* the line ended with a backslash */
  bool decorator; /* the last statement line was a decorator: the next one is its definition */
} PySplitState;

/* Whether the line starting at ls (after a line break, outside any string)
 * starts the next statement; updates the decorator and bracket state. */
static bool pysplit__starts(PySplitState *st, const char *t, size_t len, size_t ls) {
  if (ls >= len || st->cont || !pysplit__code(t[ls])) return false;
  if (st->depth && pysplit__opens_statement(t + ls, len - ls)) st->depth = 0;
  if (st->depth || pysplit__clause(t + ls, len - ls)) return false;
  bool after_decorator = st->decorator;
  st->decorator = t[ls] == '@';
  return !after_decorator;
}

size_t pysplit_next(const char *t, size_t len, size_t at) {
  PySplitState st = {0, 0, false, false, at < len && t[at] == '@'};
  size_t i = at;
  while (i < len) {
    char c = t[i];
    if (st.quote) {
      if (c == '\\') {
        i += (i + 2 < len && t[i + 1] == '\r' && t[i + 2] == '\n') ? 3 : 2;
        continue;
      }
      if (c == st.quote && (!st.triple || (i + 2 < len && t[i + 1] == c && t[i + 2] == c))) {
        i += st.triple ? 3 : 1;
        st.quote = 0;
        continue;
      }
      if (!(pysplit__eol(t, len, i) && !st.triple)) { /* an unterminated one-line string ends with its line */
        i++;
        continue;
      }
      st.quote = 0;
    }
    if (c == '#') {
      while (i < len && !pysplit__eol(t, len, i)) i++;
      continue;
    }
    if (c == '\'' || c == '"') {
      st.triple = i + 2 < len && t[i + 1] == c && t[i + 2] == c;
      st.quote = c;
      i += st.triple ? 3 : 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') st.depth++;
    else if ((c == ')' || c == ']' || c == '}') && st.depth) st.depth--;
    else if (c == '\\') st.cont = i + 1 < len && (t[i + 1] == '\n' || t[i + 1] == '\r');
    else if (pysplit__eol(t, len, i)) {
      if (pysplit__starts(&st, t, len, i + 1)) return i + 1;
      st.cont = false;
    }
    i++;
  }
  return len;
}

uint32_t pysplit_rows(const char *t, size_t len, size_t from, size_t to) {
  uint32_t n = 0;
  if (to > len) to = len;
  for (size_t i = from; i < to; i++) n += pysplit__eol(t, len, i);
  return n;
}
