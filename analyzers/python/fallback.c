/* fallback: import guards whose fallback is None (see resolver.h,
 * pyfile_required_fallbacks). A handler binding the imported name to None
 * makes the import optional only where the code checks the name before
 * using it; one use on the default path means the program needs the
 * package after all. */
#include "analyzers/engine/forest.h"
#include "analyzers/python/resolver.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/pysym.h"

#include <stdlib.h>

#define FALLBACK_MAX_NAMES 16
#define FALLBACK_MAX_DEPTH 64

static bool fallback__is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

/* Whether node n's text names `name` as a whole word. */
static bool fallback__mentions(const PyFile *py, TSNode n, const char *name) {
  return !ts_node_is_null(n) && pysyntax_mentions(py, ts_node_start_byte(n), ts_node_end_byte(n), name, strlen(name));
}

static bool fallback__mentions_any(const PyFile *py, TSNode n, const StrList *names) {
  for (size_t i = 0; i < names->len; i++)
    if (fallback__mentions(py, n, names->items[i])) return true;
  return false;
}

static bool fallback__leaves(TSNode block) {
  PyChildren it;
  pysyntax_children(&it, block);
  for (TSNode s; pysyntax_children_next(&it, &s);) {
    if (fallback__is(s, "raise_statement") || fallback__is(s, "return_statement")) {
      pysyntax_children_end(&it);
      return true;
    }
  }
  return false;
}

/* An earlier statement of `block` (before `before`) that leaves when the
 * name is unusable: `if f is None: raise ...`. */
static bool fallback__early_exit(const PyFile *py, TSNode block, TSNode before, const StrList *names) {
  /* the module's statements are the file's top-level ones, one tree each (forest.h) */
  bool module = fallback__is(block, "module");
  ForestTops it = forest_tops(py->forest, true);
  PyChildren kids;
  pysyntax_children(&kids, module ? (TSNode){0} : block);
  bool found = false;
  for (TSNode s; !found && (module ? forest_next_top(&it, &s) : pysyntax_children_next(&kids, &s));) {
    if (ts_node_start_byte(s) >= ts_node_start_byte(before)) break;
    found = fallback__is(s, "if_statement") &&
            fallback__mentions_any(py, ts_node_child_by_field_name(s, "condition", 9), names) &&
            fallback__leaves(ts_node_child_by_field_name(s, "consequence", 11));
  }
  pysyntax_children_end(&kids);
  return found;
}

/* Whether the identifier `id` is used behind a check of one of `names`. */
static bool fallback__checked(const PyFile *py, TSNode id, const StrList *names) {
  if (pyfile_in_ranges(py->guarded.items, py->guarded.len, ts_node_start_byte(id))) return true;
  TSNode c = id;
  int depth = 0; /* ts_node_parent walks from the root: bound the climb in deeply nested code */
  for (TSNode p = ts_node_parent(c); !ts_node_is_null(p) && depth < FALLBACK_MAX_DEPTH; c = p, p = ts_node_parent(p), depth++) {
    const char *t = ts_node_type(p);
    if (strcmp(t, "if_statement") == 0 || strcmp(t, "elif_clause") == 0 || strcmp(t, "while_statement") == 0) {
      if (fallback__mentions_any(py, ts_node_child_by_field_name(p, "condition", 9), names)) return true;
    } else if (strcmp(t, "conditional_expression") == 0) {
      if (ts_node_named_child_count(p) == 3 && fallback__mentions_any(py, ts_node_named_child(p, 1), names)) return true;
    } else if (strcmp(t, "boolean_operator") == 0) {
      if (fallback__mentions_any(py, ts_node_child_by_field_name(p, "left", 4), names)) return true;
    } else if (strcmp(t, "assert_statement") == 0 || strcmp(t, "comparison_operator") == 0) {
      return true; /* the check itself */
    } else if (strcmp(t, "block") == 0 || strcmp(t, "module") == 0) {
      if (fallback__early_exit(py, p, c, names)) return true;
    }
  }
  return false;
}

/* The names an ImportError handler's block sets to None (`f = None`,
 * `f = g = None`). */
static void fallback__none_names(const PyFile *py, TSNode clause, StrList *out) {
  for (uint32_t i = 0; i < ts_node_named_child_count(clause); i++) {
    TSNode b = ts_node_named_child(clause, i);
    if (!fallback__is(b, "block")) continue;
    for (uint32_t k = 0; k < ts_node_named_child_count(b); k++) {
      TSNode st = ts_node_named_child(b, k);
      TSNode a = fallback__is(st, "expression_statement") ? ts_node_named_child(st, 0) : (TSNode){0};
      while (fallback__is(a, "assignment") && out->len < FALLBACK_MAX_NAMES) {
        TSNode left = ts_node_child_by_field_name(a, "left", 4), right = ts_node_child_by_field_name(a, "right", 5);
        TSNode last = right;
        while (fallback__is(last, "assignment")) last = ts_node_child_by_field_name(last, "right", 5);
        if (!fallback__is(last, "none")) break;
        if (fallback__is(left, "identifier")) array_push(out, pyfile_node_text(py, left));
        a = right;
      }
    }
  }
}

/* Flags assigned from a check of a name (`HAS_F = f is not None`) check it too. */
static void fallback__aliases(const PyFile *py, const char *name, StrList *names) {
  uint32_t at = 0;
  for (TSNode id; !ts_node_is_null(id = pyfile_next_name(py, name, strlen(name), &at, (uint32_t)py->len));) {
    TSNode p = ts_node_parent(id);
    for (int depth = 0; !ts_node_is_null(p) && depth < FALLBACK_MAX_DEPTH && !fallback__is(p, "assignment") &&
                        !fallback__is(p, "expression_statement");
         depth++)
      p = ts_node_parent(p);
    if (!fallback__is(p, "assignment")) continue;
    TSNode left = ts_node_child_by_field_name(p, "left", 4), right = ts_node_child_by_field_name(p, "right", 5);
    if (fallback__is(left, "identifier") && fallback__is(right, "comparison_operator") && names->len < FALLBACK_MAX_NAMES)
      array_push(names, pyfile_node_text(py, left));
  }
}

/* The first use of `name` outside the try statement `stmt` that no check
 * covers (a call of it or an attribute of it), or a null node. */
static TSNode fallback__unchecked_use(const PyFile *py, TSNode stmt, const char *name) {
  StrList names = {0};
  array_push(&names, xstrdup(name));
  fallback__aliases(py, name, &names);
  uint32_t at = 0;
  TSNode found = {0};
  for (TSNode id; !ts_node_is_null(id = pyfile_next_name(py, name, strlen(name), &at, (uint32_t)py->len));) {
    uint32_t s = ts_node_start_byte(id);
    if (s >= ts_node_start_byte(stmt) && s < ts_node_end_byte(stmt)) continue;
    TSNode p = ts_node_parent(id);
    if (fallback__is(p, "assignment") && ts_node_start_byte(ts_node_child_by_field_name(p, "left", 4)) == s) continue;
    if (fallback__is(p, "global_statement") || fallback__is(p, "nonlocal_statement")) continue;
    /* only a call of the name or an attribute of it fails on None; passing the value on
     * (`self.f = f if fused else None`, an argument, a return) does not */
    bool called = fallback__is(p, "call") && ts_node_start_byte(ts_node_child_by_field_name(p, "function", 8)) == s;
    bool member = fallback__is(p, "attribute") && ts_node_start_byte(ts_node_child_by_field_name(p, "object", 6)) == s;
    if (!called && !member) continue;
    if (!fallback__checked(py, id, &names)) {
      found = id;
      break;
    }
  }
  strlist_free(&names);
  return found;
}

static bool fallback__import_guard(const PyFile *py, TSNode clause) {
  for (uint32_t i = 0; i < ts_node_named_child_count(clause); i++) {
    TSNode c = ts_node_named_child(clause, i);
    if (fallback__is(c, "block") || fallback__is(c, "comment")) continue;
    return fallback__mentions(py, c, "ImportError") || fallback__mentions(py, c, "ModuleNotFoundError") ||
           fallback__mentions(py, c, "Exception");
  }
  return true; /* bare except */
}

static void fallback__try(PyFile *py, TSNode stmt) {
  TSNode body = ts_node_child_by_field_name(stmt, "body", 4);
  if (ts_node_is_null(body)) return;
  ByteRange *guard = NULL;
  for (size_t i = 0; i < py->guarded.len && !guard; i++)
    if (py->guarded.items[i].start == ts_node_start_byte(body) && py->guarded.items[i].end == ts_node_end_byte(body))
      guard = &py->guarded.items[i];
  if (!guard) return;
  StrList names = {0};
  for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (fallback__is(c, "except_clause") && fallback__import_guard(py, c)) fallback__none_names(py, c, &names);
  }
  for (size_t i = 0; i < names.len; i++) {
    TSNode use = fallback__unchecked_use(py, stmt, names.items[i]);
    if (ts_node_is_null(use)) continue;
    PyRequired r = {guard->start, guard->end, xstrdup(names.items[i]), ts_node_start_point(use).row};
    array_push(&py->required, r);
    guard->start = guard->end = 0; /* no longer a guarded range */
    break;
  }
  strlist_free(&names);
}

/* The try statement whose body is exactly the range r, or a null node. */
static TSNode fallback__try_of(const PyFile *py, ByteRange r) {
  TSNode n = forest_node_at(py->forest, r.start, r.end);
  for (int depth = 0; !ts_node_is_null(n) && depth < FALLBACK_MAX_DEPTH; depth++) {
    if (ts_node_start_byte(n) != r.start || ts_node_end_byte(n) != r.end) break;
    TSNode up = ts_node_parent(n);
    if (fallback__is(up, "try_statement") && ts_node_eq(ts_node_child_by_field_name(up, "body", 4), n)) return up;
    n = up;
  }
  return (TSNode){0};
}

void pyfile_required_fallbacks(PyFile *py) {
  if (!memmem(py->text, py->len, "None", 4)) return;
  /* only a try statement whose body is a guarded range can hold one: those
   * ranges lead to them (in document order, as the walk found them),
   * without a second walk over the whole tree */
  Array(uint32_t) seen = {0};
  for (size_t i = 0; i < py->guarded.len; i++) {
    ByteRange r = py->guarded.items[i];
    TSNode stmt = r.end > r.start ? fallback__try_of(py, r) : (TSNode){0};
    if (ts_node_is_null(stmt)) continue;
    bool again = false;
    for (size_t k = 0; k < seen.len && !again; k++) again = seen.items[k] == ts_node_start_byte(stmt);
    if (again) continue;
    array_push(&seen, ts_node_start_byte(stmt));
    fallback__try(py, stmt);
  }
  array_free(&seen);
}

/* Whether node n is the identifier `name`. */
static bool fallback__is_name(const PyFile *py, TSNode n, const char *name) {
  return pysyntax_is_name(py, n, name, strlen(name));
}

/* Whether statement st of a handler binds `name`: a definition of it, or
 * an assignment chain with it among the targets (`f = g = None`). */
static bool fallback__binds(const PyFile *py, TSNode st, const char *name) {
  if (fallback__is(st, "function_definition") || fallback__is(st, "class_definition"))
    return fallback__is_name(py, ts_node_child_by_field_name(st, "name", 4), name);
  if (!fallback__is(st, "expression_statement")) return false;
  for (TSNode a = ts_node_named_child(st, 0); fallback__is(a, "assignment"); a = ts_node_child_by_field_name(a, "right", 5))
    if (fallback__is_name(py, ts_node_child_by_field_name(a, "left", 4), name)) return true;
  return false;
}

/* Whether an ImportError clause's block binds `name` (fallback__binds). */
static bool fallback__clause_binds(const PyFile *py, TSNode clause, const char *name) {
  for (uint32_t j = 0; j < ts_node_named_child_count(clause); j++) {
    TSNode b = ts_node_named_child(clause, j);
    for (uint32_t m = 0; fallback__is(b, "block") && m < ts_node_named_child_count(b); m++)
      if (fallback__binds(py, ts_node_named_child(b, m), name)) return true;
  }
  return false;
}

/* Whether an ImportError handler of the try statement whose body holds byte
 * `at` (a guarded range) binds `name` again: to None (`f = None`) or to a
 * fallback (`def f(...)`, `f = plain_f`). */
bool pyfile_handler_rebinds(const PyFile *py, uint32_t at, const char *name) {
  for (size_t i = 0; i < py->guarded.len; i++) {
    ByteRange r = py->guarded.items[i];
    if (at < r.start || at >= r.end) continue;
    TSNode stmt = fallback__try_of(py, r);
    for (uint32_t k = 0; !ts_node_is_null(stmt) && k < ts_node_named_child_count(stmt); k++) {
      TSNode c = ts_node_named_child(stmt, k);
      if (fallback__is(c, "except_clause") && fallback__import_guard(py, c) && fallback__clause_binds(py, c, name))
        return true;
    }
  }
  return false;
}
