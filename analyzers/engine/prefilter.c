/* prefilter: see prefilter.h. A dense DFA (256 transitions per state) keeps
 * the scan to one table load per byte. */
#include "analyzers/engine/prefilter.h"
#include "analyzers/kb/kb.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
  int32_t *next;   /* states * 256 */
  uint8_t *out;    /* state accepts */
  size_t states, fragments;
  bool disabled;
} Automaton;

static Automaton prefilter__dfa;
static pthread_once_t prefilter__once = PTHREAD_ONCE_INIT;

static bool prefilter__ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Kinds that can fire on Python text. */
static bool prefilter__python_kind(KbMatch m) {
  switch (m) {
  case KB_QUALNAME: case KB_METHOD: case KB_ATTRIBUTE: case KB_STRING_ARG: case KB_NAMED_STRING:
  case KB_ENV: case KB_IMPORT: case KB_SUBCLASS: case KB_DECORATOR: case KB_DETECTOR: case KB_PASSED_TO:
    return true;
  default:
    return false;
  }
}

typedef Array(int32_t) IntList;
typedef Array(uint8_t) ByteList;

static size_t prefilter__new_state(IntList *next, ByteList *out) {
  size_t s = out->len;
  array_reserve(next, 256);
  for (int i = 0; i < 256; i++) next->items[next->len++] = -1;
  array_push(out, 0);
  return s;
}

static void prefilter__add(IntList *next, ByteList *out, const char *w, size_t n) {
  size_t s = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)w[i];
    int32_t t = next->items[s * 256 + c];
    if (t < 0) {
      t = (int32_t)prefilter__new_state(next, out);
      next->items[s * 256 + c] = t;
    }
    s = (size_t)t;
  }
  out->items[s] = 1;
}

/* Adds every identifier run of >= 3 bytes of s; returns how many. */
static size_t prefilter__fragments_of(IntList *next, ByteList *out, const char *s) {
  size_t count = 0;
  while (s && *s) {
    while (*s && !prefilter__ident(*s)) s++;
    const char *b = s;
    while (*s && prefilter__ident(*s)) s++;
    if (s - b >= 3) {
      prefilter__add(next, out, b, (size_t)(s - b));
      count++;
    }
  }
  return count;
}

/* Breadth-first failure links, folded into the dense table. */
static void prefilter__link(IntList *next, ByteList *out) {
  size_t n = out->len;
  int32_t *fail = xcalloc(n, sizeof *fail);
  size_t *queue = xmalloc(n * sizeof *queue), head = 0, tail = 0;
  for (int c = 0; c < 256; c++) {
    int32_t t = next->items[c];
    if (t < 0) next->items[c] = 0;
    else {
      fail[t] = 0;
      queue[tail++] = (size_t)t;
    }
  }
  while (head < tail) {
    size_t s = queue[head++];
    if (out->items[fail[s]]) out->items[s] = 1;
    for (int c = 0; c < 256; c++) {
      int32_t t = next->items[s * 256 + c];
      if (t < 0) {
        next->items[s * 256 + c] = next->items[(size_t)fail[s] * 256 + c];
      } else {
        fail[t] = next->items[(size_t)fail[s] * 256 + c];
        queue[tail++] = (size_t)t;
      }
    }
  }
  free(queue);
  free(fail);
}

static void prefilter__build(void) {
  IntList next = {0};
  ByteList out = {0};
  prefilter__new_state(&next, &out);
  size_t n, total = 0;
  const KbEntry *e = kb_entries(&n);
  for (size_t i = 0; i < n; i++) {
    if (!prefilter__python_kind(e[i].match)) continue;
    size_t k = prefilter__fragments_of(&next, &out, e[i].pattern) + prefilter__fragments_of(&next, &out, e[i].arg) +
               prefilter__fragments_of(&next, &out, e[i].value);
    if (k == 0) prefilter__dfa.disabled = true; /* a row that could match anything */
    total += k;
  }
  prefilter__link(&next, &out);
  prefilter__dfa.next = next.items;
  prefilter__dfa.out = out.items;
  prefilter__dfa.states = out.len;
  prefilter__dfa.fragments = prefilter__dfa.disabled ? 0 : total;
}

bool prefilter_may_match(const char *text, size_t len) {
  pthread_once(&prefilter__once, prefilter__build);
  const Automaton *a = &prefilter__dfa;
  if (a->disabled) return true;
  size_t s = 0;
  for (size_t i = 0; i < len; i++) {
    s = (size_t)a->next[s * 256 + (unsigned char)text[i]];
    if (a->out[s]) return true;
  }
  return false;
}

size_t prefilter_fragments(void) {
  pthread_once(&prefilter__once, prefilter__build);
  return prefilter__dfa.fragments;
}
