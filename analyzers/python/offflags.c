/* offflags: see offflags.h. */
#include "analyzers/python/offflags.h"
#include "analyzers/engine/forest.h"
#include "analyzers/engine/texthits.h"
#include "analyzers/python/pysyntax.h"

#include <stdlib.h>

static bool offflags__ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (unsigned char)c >= 0x80;
}

/* The attribute node of `self.<attr>`, or a null node. */
static TSNode offflags__self_attr(const PyFile *py, TSNode n) {
  n = pysyntax_unparen(n);
  if (pysym_of(n) != PYSYM_ATTRIBUTE) return (TSNode){0};
  TSNode obj = pysym_child(n, PYFIELD_OBJECT), attr = pysym_child(n, PYFIELD_ATTRIBUTE);
  return pysyntax_is_name(py, obj, "self", 4) && pysym_of(attr) == PYSYM_IDENTIFIER ? attr : (TSNode){0};
}

/* The `self.<attr>` operands a condition requires true, into attrs (at
 * most max; *n counts them): the whole condition, or the operands of its
 * `and` chain (nested to the left), right to left. */
static void offflags__required(const PyFile *py, TSNode cond, TSNode *attrs, size_t *n, size_t max) {
  for (; *n < max;) {
    cond = pysyntax_unparen(cond);
    TSNode op = pysyntax_is(cond, "boolean_operator") ? pysym_child(cond, PYFIELD_OPERATOR) : (TSNode){0};
    bool and_op = !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
    TSNode hit = offflags__self_attr(py, and_op ? pysym_child(cond, PYFIELD_RIGHT) : cond);
    if (!ts_node_is_null(hit)) attrs[(*n)++] = hit;
    if (!and_op) return;
    cond = pysym_child(cond, PYFIELD_LEFT);
  }
}

/* Whether byte `at` follows a `#` outside quotes on its line: in a comment. */
static bool offflags__in_comment(const PyFile *py, size_t at) {
  size_t b = at;
  while (b > 0 && py->text[b - 1] != '\n' && py->text[b - 1] != '\r') b--;
  char quote = 0;
  for (size_t i = b; i < at; i++) {
    char c = py->text[i];
    if (quote && c == '\\') i++;
    else if (quote && c == quote) quote = 0;
    else if (!quote && (c == '"' || c == '\'')) quote = c;
    else if (!quote && c == '#') return true;
  }
  return false;
}

/* Whether the line from byte `at` holds a lone `=` (an annotated
 * assignment's, after its type), not `==`, `<=`, `>=`, `!=`. */
static bool offflags__assigns_after(const PyFile *py, size_t at) {
  for (size_t i = at; i < py->len && py->text[i] != '\n' && py->text[i] != '\r' && py->text[i] != '#'; i++) {
    if (py->text[i] != '=') continue;
    char before = py->text[i - 1], after = i + 1 < py->len ? py->text[i + 1] : '\0';
    if (after != '=' && !strchr("=<>!", before)) return true;
    i += after == '=';
  }
  return false;
}

/* Where the one write `self.<name> = ...` of the file is (its name's
 * first byte), when every mention of the name outside comments is
 * `self.<name>` and no other writes it; UINT32_MAX otherwise. */
static uint32_t offflags__sole_write(const PyFile *py, const char *name, size_t n) {
  uint32_t write = UINT32_MAX;
  for (const char *p = py->text, *end = py->text + py->len; (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p++) {
    size_t at = (size_t)(p - py->text);
    bool left = at == 0 || !offflags__ident(py->text[at - 1]);
    bool right = at + n == py->len || !offflags__ident(py->text[at + n]);
    if (!left || !right || offflags__in_comment(py, at)) continue;
    if (at < 5 || memcmp(py->text + at - 5, "self.", 5) != 0 || (at > 5 && offflags__ident(py->text[at - 6])))
      return UINT32_MAX; /* a string, a keyword, another object's attribute: someone else may set it */
    size_t a = at + n;
    while (a < py->len && (py->text[a] == ' ' || py->text[a] == '\t')) a++;
    char c = a < py->len ? py->text[a] : '\0', d = a + 1 < py->len ? py->text[a + 1] : '\0';
    if (c == ':' && offflags__assigns_after(py, a + 1)) return UINT32_MAX; /* `self.x: bool = ...` */
    if (c && strchr("+-*/%&|^@", c) && d == '=') return UINT32_MAX;        /* updated */
    if (c != '=' || d == '=') continue; /* a read */
    if (write != UINT32_MAX) return UINT32_MAX;
    write = (uint32_t)at;
  }
  return write;
}

/* Whether statement s is `<local> = False`. */
static bool offflags__sets_false(const PyFile *py, TSNode s, TSNode local) {
  TSNode a = pysym_of(s) == PYSYM_EXPRESSION_STATEMENT ? ts_node_named_child(s, 0) : (TSNode){0};
  if (pysym_of(a) != PYSYM_ASSIGNMENT) return false;
  TSNode left = pysym_child(a, PYFIELD_LEFT), right = pysym_child(a, PYFIELD_RIGHT);
  uint32_t ls = ts_node_start_byte(local);
  return pysyntax_is_name(py, left, py->text + ls, ts_node_end_byte(local) - ls) && pysyntax_is(right, "false");
}

/* Whether attribute `name` is hard-coded off in the file (offflags.h). */
static bool offflags__off(const PyFile *py, const char *name, size_t n) {
  uint32_t at = offflags__sole_write(py, name, n);
  if (at == UINT32_MAX) return false;
  ForestUp up = forest_paths_up(py->paths, at, at + (uint32_t)n);
  TSNode steps[5];
  size_t k = 0;
  for (TSNode c; k < 5 && forest_up_next(&up, &c, NULL);) steps[k++] = c;
  forest_up_end(&up);
  /* identifier, attribute, assignment, expression_statement, block */
  if (k < 5 || pysym_of(steps[2]) != PYSYM_ASSIGNMENT || pysym_of(steps[3]) != PYSYM_EXPRESSION_STATEMENT ||
      !pysyntax_is(steps[4], "block") || !ts_node_eq(pysym_child(steps[2], PYFIELD_LEFT), steps[1]))
    return false;
  TSNode local = pysym_child(steps[2], PYFIELD_RIGHT);
  if (pysym_of(local) != PYSYM_IDENTIFIER) return false;
  uint32_t ls = ts_node_start_byte(local), ln = ts_node_end_byte(local) - ls;
  for (TSNode s = ts_node_prev_named_sibling(steps[3]); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s))
    if (pysyntax_mentions(py, ts_node_start_byte(s), ts_node_end_byte(s), py->text + ls, ln))
      return offflags__sets_false(py, s, local); /* the local's last binding before the write */
  return false;
}

/* Whether the text has a statement `<local> = False` (a line of only
 * that, and a comment): without one no attribute is off, and no finding's
 * branches need a look. The places of " = False" are kept between versions
 * (texthits.h). */
static bool offflags__any(const PyFile *py, TextHits *hits) {
  static const char needle[] = " = False";
  const size_t nl = sizeof needle - 1;
  size_t count;
  const uint32_t *at = texthits_find(hits, py->text, py->len, needle, nl, &count);
  const char *end = py->text + py->len;
  for (size_t k = 0; k < count; k++) {
    const char *p = py->text + at[k], *e = p + nl, *b = p;
    while (e < end && (*e == ' ' || *e == '\t')) e++;
    if (e < end && *e != '\n' && *e != '\r' && *e != '#') continue;
    while (b > py->text && offflags__ident(b[-1])) b--;
    if (b == p) continue;
    while (b > py->text && (b[-1] == ' ' || b[-1] == '\t')) b--;
    if (b == py->text || b[-1] == '\n' || b[-1] == '\r') return true;
  }
  return false;
}

#define OFFFLAGS__MAX_IFS 8 /* `self.<attr>` tests of enclosing branches looked at, innermost first */

const char *pyoffflags_branch(const PyFile *py, TextHits *hits, PyOffFlags *memo, uint32_t start, uint32_t end) {
  if (!memo->scanned) memo->any = offflags__any(py, hits);
  memo->scanned = true;
  if (!memo->any) return NULL;
  /* the tests first: judging an attribute walks up from its write, which
   * would replace the kept path this walk reads */
  TSNode attrs[OFFFLAGS__MAX_IFS];
  size_t n_attrs = 0;
  ForestUp up = forest_paths_up(py->paths, start, end);
  const char *field, *below = NULL; /* `below`: the field of the step before in its parent */
  for (TSNode c; n_attrs < OFFFLAGS__MAX_IFS && forest_up_next(&up, &c, &field); below = field) {
    PySym k = pysym_of(c);
    if ((k != PYSYM_IF_STATEMENT && k != PYSYM_ELIF_CLAUSE) || !below || strcmp(below, "consequence") != 0) continue;
    offflags__required(py, pysym_child(c, PYFIELD_CONDITION), attrs, &n_attrs, OFFFLAGS__MAX_IFS);
  }
  forest_up_end(&up);
  for (size_t a = 0; a < n_attrs; a++) {
    uint32_t s = ts_node_start_byte(attrs[a]), n = ts_node_end_byte(attrs[a]) - s;
    size_t i = 0;
    const PyOffFlag *it = memo->asked.items;
    while (i < memo->asked.len && (strlen(it[i].name) != n || memcmp(it[i].name, py->text + s, n) != 0)) i++;
    if (i == memo->asked.len) {
      PyOffFlag f = {xstrndup(py->text + s, n), offflags__off(py, py->text + s, n)};
      array_push(&memo->asked, f);
    }
    if (memo->asked.items[i].off) return memo->asked.items[i].name;
  }
  return NULL;
}

void pyoffflags_free(PyOffFlags *memo) {
  for (size_t i = 0; i < memo->asked.len; i++) free(memo->asked.items[i].name);
  array_free(&memo->asked);
}
