/* pysym: see pysym.h. */
#include "analyzers/python/pysym.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

TSLanguage *tree_sitter_python(void);

static unsigned char *pysym__map; /* symbol id -> PySym */
static unsigned char *pysym__stmt; /* symbol id -> 1 for a statement kind (pysym_is_statement) */
static uint32_t pysym__count;
static TSFieldId pysym__fields[PYFIELD__COUNT];
static pthread_once_t pysym__once = PTHREAD_ONCE_INIT;

static void pysym__build(void) {
  static const char *const names[PYSYM__COUNT] = {
      NULL,
#define PYSYM__NAME(id, name) name,
      PYSYM_NAMES(PYSYM__NAME)
#undef PYSYM__NAME
  };
  static const char *const fields[PYFIELD__COUNT] = {
#define PYFIELD__NAME(id, name) name,
      PYFIELD_NAMES(PYFIELD__NAME)
#undef PYFIELD__NAME
  };
  const TSLanguage *lang = tree_sitter_python();
  for (int f = 0; f < PYFIELD__COUNT; f++)
    pysym__fields[f] = ts_language_field_id_for_name(lang, fields[f], (uint32_t)strlen(fields[f]));
  pysym__count = ts_language_symbol_count(lang);
  pysym__map = calloc(pysym__count, 1);
  pysym__stmt = calloc(pysym__count, 1);
  if (!pysym__map || !pysym__stmt) abort(); /* at start-up, before any input is read */
  for (uint32_t s = 0; s < pysym__count; s++) {
    if (ts_language_symbol_type(lang, (TSSymbol)s) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
    size_t len = strlen(name);
    pysym__stmt[s] = (len > 10 && strcmp(name + len - 10, "_statement") == 0) || strcmp(name, "function_definition") == 0 ||
                     strcmp(name, "class_definition") == 0 || strcmp(name, "decorated_definition") == 0;
    for (int k = 1; k < PYSYM__COUNT; k++)
      if (strcmp(name, names[k]) == 0) pysym__map[s] = (unsigned char)k;
  }
}

PySym pysym_of(TSNode n) {
  if (ts_node_is_null(n)) return PYSYM_OTHER; /* a missing field (an ERROR subtree) is no symbol */
  pthread_once(&pysym__once, pysym__build);
  TSSymbol s = ts_node_symbol(n);
  return s < pysym__count ? (PySym)pysym__map[s] : PYSYM_OTHER;
}

bool pysym_is_statement(TSNode n) {
  if (ts_node_is_null(n)) return false;
  pthread_once(&pysym__once, pysym__build);
  TSSymbol s = ts_node_symbol(n);
  return s < pysym__count && pysym__stmt[s];
}

/* The shapes met on nearly every node: `obj . attr` and `fn args` have a
 * fixed child layout when no comment sits inside them, and reading a child
 * by index is far cheaper than a field lookup. Anything else takes the
 * general path. */
static bool pysym__fast(TSNode n, PyField f, TSNode *out) {
  PySym k = pysym_of(n);
  uint32_t want, idx;
  if (k == PYSYM_ATTRIBUTE && (f == PYFIELD_OBJECT || f == PYFIELD_ATTRIBUTE)) {
    want = 3;
    idx = f == PYFIELD_OBJECT ? 0 : 2;
  } else if (k == PYSYM_CALL && (f == PYFIELD_FUNCTION || f == PYFIELD_ARGUMENTS)) {
    want = 2;
    idx = f == PYFIELD_FUNCTION ? 0 : 1;
  } else {
    return false;
  }
  if (ts_node_child_count(n) != want) return false;
  TSNode c = ts_node_child(n, idx);
  if (ts_node_is_extra(c) || !ts_node_is_named(c)) return false;
  *out = c;
  return true;
}

TSNode pysym_child(TSNode n, PyField f) {
  pthread_once(&pysym__once, pysym__build);
  if (ts_node_is_null(n) || !pysym__fields[f]) return (TSNode){0};
  TSNode c;
  if (pysym__fast(n, f, &c)) return c;
  return ts_node_child_by_field_id(n, pysym__fields[f]);
}

TSFieldId pysym_field_id(PyField f) {
  pthread_once(&pysym__once, pysym__build);
  return pysym__fields[f];
}
