/* switches: see switches.h. Each `action="store_true"` string leads to its
 * `add_argument(...)` call (a walk up from the string), whose option names
 * give the destination; a branch is found by a walk up from the construct
 * to its function, reading each if/elif/else it sits in. */
#include "analyzers/python/switches.h"

#include <string.h>

#include "analyzers/engine/forest.h"
#include "analyzers/engine/texthits.h"
#include "analyzers/kb/kb.h"
#include "analyzers/python/pysym.h"
#include "analyzers/python/pysyntax.h"

/* `--use-ema` -> "use_ema" (argparse's dest: leading dashes dropped, the
 * others made underscores). NULL when the option is not a long option. */
static char *switches__dest(const char *opt) {
  if (strncmp(opt, "--", 2) != 0 || !opt[2]) return NULL;
  char *d = xstrdup(opt + 2);
  for (char *p = d; *p; p++)
    if (*p == '-') *p = '_';
  return d;
}

/* Records the switch of an add_argument call whose `action` is the string
 * `action` when it leaves the switch off (no `default=` but False): its
 * destination (`dest=`, else from the first long option) and the option
 * as written. */
static void switches__call(const PyFile *py, TSNode call, const char *action, const char *kept, PySwitches *out) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION), args = pysym_child(call, PYFIELD_ARGUMENTS);
  TSNode attr = pysym_of(fn) == PYSYM_ATTRIBUTE ? pysym_child(fn, PYFIELD_ATTRIBUTE) : (TSNode){0};
  if (ts_node_is_null(attr) || ts_node_is_null(args) ||
      !pysyntax_is_name(py, attr, "add_argument", strlen("add_argument")))
    return;
  char *act = pysyntax_string_value(py, pysyntax_argument(py, args, "action"));
  TSNode def = pysyntax_argument(py, args, "default");
  bool off = act && strcmp(act, action) == 0 && (ts_node_is_null(def) || pysyntax_is(def, "false"));
  free(act);
  if (!off) return;
  char *dest = pysyntax_string_value(py, pysyntax_argument(py, args, "dest")), *option = NULL;
  PyChildren it;
  pysyntax_children(&it, args);
  for (TSNode a; !option && pysyntax_children_next(&it, &a);) {
    if (pysym_of(a) == PYSYM_KEYWORD_ARGUMENT) break;
    char *opt = pysyntax_string_value(py, a);
    char *d = opt ? switches__dest(opt) : NULL;
    if (d) {
      option = opt;
      if (!dest) dest = d;
      else free(d);
    } else {
      free(opt);
    }
  }
  pysyntax_children_end(&it);
  if (dest && option && !(kept && kb_pattern_match(kept, option))) {
    array_push(&out->names, dest);
    array_push(&out->options, option);
  } else {
    free(dest);
    free(option);
  }
}

void pyswitches_scan(const PyFile *py, TextHits *hits, const char *action, const char *kept, PySwitches *out) {
  memset(out, 0, sizeof *out);
  size_t n = strlen(action), count;
  const uint32_t *at_all = texthits_find(hits, py->text, py->len, action, n, &count);
  for (size_t i = 0, next = 0; i < count; i++) {
    if (at_all[i] < next) continue; /* within the last one taken: the scan goes on after it */
    next = at_all[i] + n;
    uint32_t at = at_all[i];
    ForestUp up = forest_paths_up(py->paths, at, at + (uint32_t)n);
    const char *field;
    for (TSNode c; forest_up_next(&up, &c, &field);) {
      PySym s = pysym_of(c);
      if (s == PYSYM_CALL) switches__call(py, c, action, kept, out);
      if (s == PYSYM_CALL || s == PYSYM_BLOCK || s == PYSYM_MODULE) break;
    }
    forest_up_end(&up);
  }
}

static const char *switches__find(const PyFile *py, const PySwitches *sw, TSNode name) {
  for (size_t i = 0; i < sw->names.len; i++)
    if (pysyntax_is_name(py, name, sw->names.items[i], strlen(sw->names.items[i]))) return sw->options.items[i];
  return NULL;
}

/* The switch that `cond` requires on: `args.x`, one operand of an `and`
 * chain, or the same in parentheses; with `negated`, `not args.x`. */
static const char *switches__requires(const PyFile *py, const PySwitches *sw, TSNode cond, bool negated) {
  cond = pysyntax_unparen(cond);
  if (negated) {
    if (!pysyntax_is(cond, "not_operator")) return NULL;
    cond = pysyntax_unparen(ts_node_named_child(cond, 0));
  }
  /* `a and b and c` nests to the left: each right operand, then the last left */
  for (;;) {
    TSNode op = pysyntax_is(cond, "boolean_operator") && !negated ? pysym_child(cond, PYFIELD_OPERATOR) : (TSNode){0};
    bool and_op = !ts_node_is_null(op) && pysyntax_is(op, "and");
    TSNode leaf = and_op ? pysyntax_unparen(pysym_child(cond, PYFIELD_RIGHT)) : cond;
    TSNode obj = pysym_of(leaf) == PYSYM_ATTRIBUTE ? pysym_child(leaf, PYFIELD_OBJECT) : (TSNode){0};
    /* `self.x` is the object's state, not the parsed command line */
    if (pysym_of(obj) == PYSYM_IDENTIFIER && !pysyntax_is_name(py, obj, "self", 4)) {
      const char *hit = switches__find(py, sw, pysym_child(leaf, PYFIELD_ATTRIBUTE));
      if (hit) return hit;
    }
    if (!and_op) return NULL;
    cond = pysyntax_unparen(pysym_child(cond, PYFIELD_LEFT));
  }
}

const char *pyswitches_branch(const PyFile *py, const PySwitches *sw, uint32_t start, uint32_t end) {
  if (!sw->names.len) return NULL;
  ForestUp up = forest_paths_up(py->paths, start, end);
  const char *field, *hit = NULL;
  PySym below = PYSYM_OTHER; /* the kind of the node the walk came from */
  for (TSNode c; !hit && forest_up_next(&up, &c, &field);) {
    PySym s = pysym_of(c);
    if (s == PYSYM_FUNCTION_DEFINITION || s == PYSYM_CLASS_DEFINITION || s == PYSYM_MODULE) break;
    if ((s == PYSYM_IF_STATEMENT || s == PYSYM_ELIF_CLAUSE) && below == PYSYM_BLOCK)
      hit = switches__requires(py, sw, pysym_child(c, PYFIELD_CONDITION), false);
    if (s == PYSYM_IF_STATEMENT && below == PYSYM_ELSE_CLAUSE)
      hit = switches__requires(py, sw, pysym_child(c, PYFIELD_CONDITION), true);
    below = s;
  }
  forest_up_end(&up);
  return hit;
}

void pyswitches_free(PySwitches *sw) {
  strlist_free(&sw->names);
  strlist_free(&sw->options);
}
