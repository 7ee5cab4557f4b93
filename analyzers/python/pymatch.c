/* pymatch: the table-driven matcher for Python. One cursor walk visits every
 * node; each node type consults the mapping rows of the match kinds that can
 * apply to it (kb_lookup for single-key kinds, a scan of the few
 * string-argument rows). No API names appear here: they are all in kb.c. */
#include "analyzers/python/pymatch.h"
#include "analyzers/python/resolver.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/pysym.h"

#include <stdlib.h>

typedef struct {
  AnalyzeCtx *ctx;
  PyFile *py; /* the walk adds the guarded ranges it finds inside expressions */
  const KbEntry *str_rows[64]; /* KB_STRING_ARG / KB_NAMED_STRING rows */
  size_t n_str_rows;
  /* the last import finding: a package imported again in the same block
   * (`import xformers` then `import xformers.ops` in one try) is one item */
  const char *last_import_code;
  char last_import_pkg[64];
  uint32_t last_import_block;
  const char *harmless; /* the "harmless-unused-imports" row's names: unused, no finding */
  const char *type_tested; /* the "type-tested-classes" row's names */
  TSNode tested;           /* the last type test's class argument (null: none yet) */
} Matcher;

/* The class argument of a type test (`isinstance(m, torch.nn.DataParallel)`,
 * `issubclass(t, C)`, alone or as a tuple), or a null node. */
static TSNode pymatch__type_tested(const Matcher *m, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION), args = pysym_child(call, PYFIELD_ARGUMENTS);
  TSNode none = {0};
  if (ts_node_is_null(args) || ts_node_named_child_count(args) != 2) return none;
  if (!pysyntax_is_name(m->py, fn, "isinstance", 10) && !pysyntax_is_name(m->py, fn, "issubclass", 10)) return none;
  return ts_node_named_child(args, 1);
}

static const KbEntry *pymatch__lookup(Matcher *m, KbMatch kind, const char *s) {
  return kb_lookup(kind, s, m->ctx->opt->user_entries, m->ctx->opt->n_user_entries);
}

/* The concrete replacement for this site when the row's fix is textual:
 * torch.cuda.amp.autocast -> torch.npu.amp.autocast, f"cuda:{r}" -> f"npu:{r}".
 * NULL: use the row's replacement text. Caller frees. */
static char *pymatch__replacement(Matcher *m, const KbEntry *e, TSNode n, const char *subject) {
  if (e->fix_kind == KBFIX_RENAME_QUAL && util_starts_with(subject, e->fix_from)) {
    const char *rest = subject + strlen(e->fix_from);
    if (*rest == '\0' || *rest == '.') return xasprintf("%s%s", e->fix_to, rest);
  }
  if (e->fix_kind == KBFIX_STRING_SUB) {
    uint32_t s = ts_node_start_byte(n), t = ts_node_end_byte(n);
    if (t - s > 120) return NULL;
    const char *hit = memmem(m->py->text + s, t - s, e->fix_from, strlen(e->fix_from));
    if (!hit) return NULL;
    return xasprintf("%.*s%s%.*s", (int)(hit - (m->py->text + s)), m->py->text + s, e->fix_to,
                     (int)(m->py->text + t - hit - strlen(e->fix_from)), hit + strlen(e->fix_from));
  }
  return NULL;
}

/* Emits one finding for `e` over node n (deduplicated per start and code,
 * and for glob rows without a fix per line or per file). */
static Finding *pymatch__emit(Matcher *m, const KbEntry *e, TSNode n, const char *subject) {
  const KbRule *rule = context_rule(m->ctx->opt, e->code);
  if (!rule) return NULL;
  /* testing against a class neither builds nor calls it */
  if (m->type_tested && !ts_node_is_null(m->tested) && ts_node_start_byte(n) >= ts_node_start_byte(m->tested) &&
      ts_node_end_byte(n) <= ts_node_end_byte(m->tested) && kb_pattern_match(m->type_tested, subject))
    return NULL;
  for (size_t i = m->ctx->out->len; i-- > 0;) {
    Finding *f = &m->ctx->out->items[i];
    if (f->start_byte != ts_node_start_byte(n)) break;
    if (strcmp(f->rule->code, e->code) == 0) return NULL;
  }
  TSPoint s = ts_node_start_point(n), t = ts_node_end_point(n);
  /* A glob row without a fix says the same thing of every name it covers:
   * once per line (`trt.Logger(trt.Logger.INFO)`), and for a third-party
   * library with no Ascend build (`tensorrt.*`, `xformers.*`) once per file;
   * torch.* globs (unknown torch.cuda APIs, custom ops) name distinct items. */
  if (e->fix_kind == KBFIX_NONE && strchr(e->pattern, '*')) {
    bool library = kb_entry_is_library(e);
    for (size_t i = m->ctx->out->len; i-- > 0;) {
      const Finding *f = &m->ctx->out->items[i];
      if (f->entry == e && (library || f->start_row == s.row) && !pyfile_import_row(m->py, f->start_row)) return NULL;
      if (!library) break;
    }
  }
  char *repl = pymatch__replacement(m, e, n, subject);
  Finding *f = kb_emit(m->ctx->out, rule, e, subject, repl, ts_node_start_byte(n), ts_node_end_byte(n), s.row,
                       s.column, t.row, t.column);
  free(repl);
  f->fix = e->fix_kind == KBFIX_NONE ? FIX_NONE : e->fix_safety;
  return f;
}

/* ---- fixes ---------------------------------------------------------------- */

static void pymatch__need_import(Matcher *m, Finding *f, const KbEntry *e) {
  if (!e->needs_torch_npu || m->py->imports_torch_npu || f->fix == FIX_NONE) return;
  f->fix_needs_torch_npu = true;
  char *ins = pysyntax_import_insertion(m->py, "import torch_npu");
  finding_add_edit(f, pysyntax_import_point(m->py), pysyntax_import_point(m->py), ins);
  free(ins);
}

/* Rewrites the import that binds the chain's base so that it denotes T
 * where it denoted F (F is a prefix of the binding's qualname). */
static bool pymatch__fix_import(Matcher *m, Finding *f, const PyBinding *b, const char *F, const char *T) {
  size_t fl = strlen(F);
  if (strncmp(b->qualname, F, fl) != 0 || (b->qualname[fl] && b->qualname[fl] != '.')) return false;
  char *q2 = xasprintf("%s%s", T, b->qualname + fl);
  bool ok = true;
  if (!b->from_import) {
    if (b->module_end > b->module_start) finding_add_edit(f, b->module_start, b->module_end, q2);
    else ok = false;
  } else {
    char *dot = strrchr(q2, '.');
    const char *old_name = b->qualname + strlen(b->qualname);
    while (old_name > b->qualname && old_name[-1] != '.') old_name--;
    if (!dot) {
      ok = false;
    } else {
      char *mod2 = xstrndup(q2, (size_t)(dot - q2));
      const char *name2 = dot + 1;
      size_t mlen = b->module_end - b->module_start;
      bool same_mod = strlen(mod2) == mlen && memcmp(m->py->text + b->module_start, mod2, mlen) == 0;
      if (!same_mod) finding_add_edit(f, b->module_start, b->module_end, mod2);
      if (strcmp(name2, old_name) != 0) {
        bool aliased = strcmp(b->local, old_name) != 0;
        char *nm = aliased ? xstrdup(name2) : xasprintf("%s as %s", name2, b->local);
        finding_add_edit(f, b->name_start, b->name_end, nm);
        free(nm);
      }
      free(mod2);
    }
  }
  free(q2);
  return ok;
}

/* KBFIX_RENAME_QUAL at reference `n` whose qualified name starts with F. */
static void pymatch__fix_rename_qual(Matcher *m, Finding *f, TSNode n, const KbEntry *e) {
  const char *F = e->fix_from, *T = e->fix_to;
  /* Find the chain node whose own qualified name is F. */
  TSNode cur = n;
  for (;;) {
    char *q = pyfile_qualname(m->py, cur);
    bool hit = q && strcmp(q, F) == 0;
    free(q);
    if (hit || !pysyntax_is(cur, "attribute")) break;
    cur = pysym_child(cur, PYFIELD_OBJECT);
  }
  TSNode base = cur;
  while (pysyntax_is(base, "attribute")) base = pysym_child(base, PYFIELD_OBJECT);
  if (!pysyntax_is(base, "identifier")) {
    f->fix = FIX_NONE;
    return;
  }
  uint32_t bs = ts_node_start_byte(base), be = ts_node_end_byte(base);
  const PyBinding *b = pyfile_lookup(m->py, m->py->text + bs, be - bs, bs);
  if (!b) {
    f->fix = FIX_NONE;
    return;
  }
  size_t ql = strlen(b->qualname);
  char *cq = pyfile_qualname(m->py, cur);
  bool literal = cq && strcmp(cq, F) == 0 && strncmp(T, b->qualname, ql) == 0 && T[ql] == '.' &&
                 strlen(F) > ql;
  free(cq);
  if (literal) {
    /* `th.cuda.x` -> `th.npu.x`: rewrite the chain past its base. */
    char *txt = xasprintf("%.*s%s", (int)(be - bs), m->py->text + bs, T + ql);
    finding_add_edit(f, bs, ts_node_end_byte(cur), txt);
    free(txt);
  } else if (!pymatch__fix_import(m, f, b, F, T)) {
    f->fix = FIX_NONE;
    return;
  }
  pymatch__need_import(m, f, e);
}

static void pymatch__fix_string(Matcher *m, Finding *f, TSNode str, const KbEntry *e) {
  uint32_t s = ts_node_start_byte(str), t = ts_node_end_byte(str);
  const char *hit = memmem(m->py->text + s, t - s, e->fix_from, strlen(e->fix_from));
  if (!hit) {
    f->fix = FIX_NONE;
    return;
  }
  uint32_t at = (uint32_t)(hit - m->py->text);
  finding_add_edit(f, at, at + (uint32_t)strlen(e->fix_from), e->fix_to);
  pymatch__need_import(m, f, e);
}

static void pymatch__fix_name(Matcher *m, Finding *f, TSNode ident, const KbEntry *e) {
  finding_add_edit(f, ts_node_start_byte(ident), ts_node_end_byte(ident), e->fix_to);
  pymatch__need_import(m, f, e);
}

/* ---- references --------------------------------------------------------- */

/* Where the reference `at` (resolving to q) is an argument of a call, a
 * KB_PASSED_TO row for that callee replaces `hit` there. */
static const KbEntry *pymatch__passed(Matcher *m, TSNode at, const char *q, const KbEntry *hit) {
  TSNode args = ts_node_parent(at);
  if (pysym_of(args) == PYSYM_KEYWORD_ARGUMENT) args = ts_node_parent(args);
  TSNode call = pysym_of(args) == PYSYM_ARGUMENT_LIST ? ts_node_parent(args) : (TSNode){0};
  if (pysym_of(call) != PYSYM_CALL) return hit;
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  char *callee = ts_node_is_null(fn) ? NULL : pyfile_qualname(m->py, fn);
  const KbEntry *row = callee ? kb_lookup_passed(q, callee, m->ctx->opt->user_entries, m->ctx->opt->n_user_entries) : NULL;
  free(callee);
  return row ? row : hit;
}

/* The longest prefix of the chain at n with an exact row wins; then globs on
 * the whole chain. */
static void pymatch__reference(Matcher *m, TSNode n, bool compared) {
  char *full = pyfile_qualname(m->py, n);
  if (!full) return;
  const KbEntry *hit = NULL;
  TSNode at = n;
  char *q = xstrdup(full);
  for (;;) {
    const KbEntry *e = pymatch__lookup(m, KB_QUALNAME, q);
    if (e && !strpbrk(e->pattern, "*?")) {
      hit = e;
      break;
    }
    char *dot = strrchr(q, '.');
    if (!dot || !pysyntax_is(at, "attribute")) break;
    *dot = '\0';
    at = pysym_child(at, PYFIELD_OBJECT);
  }
  if (!hit) {
    at = n;
    free(q);
    q = xstrdup(full);
    hit = pymatch__lookup(m, KB_QUALNAME, q);
  }
  /* A dtype compared (`x.dtype == torch.float64`) or tabulated is not a
   * use; other comparisons (Backend.NCCL) are migration items themselves. */
  if (hit && compared && kb_domain(hit->code) == 6) hit = NULL;
  if (hit) hit = pymatch__passed(m, at, q, hit);
  if (hit) {
    Finding *f = pymatch__emit(m, hit, at, q);
    if (f && hit->fix_kind == KBFIX_RENAME_QUAL) pymatch__fix_rename_qual(m, f, at, hit);
  }
  free(q);
  free(full);
}

/* Whether obj names an imported module or object (`torch`, `th.cuda`);
 * a call's result (`torch.randn(3)`) is a value, never a module. */
static bool pymatch__is_module_ref(Matcher *m, TSNode obj) {
  PySym k = pysym_of(obj);
  if (k != PYSYM_IDENTIFIER && k != PYSYM_ATTRIBUTE) return false;
  char *q = pyfile_qualname(m->py, obj);
  bool r = q != NULL;
  free(q);
  return r;
}

/* `<expr>.cuda(...)` and `<expr>.is_cuda` */
static void pymatch__member(Matcher *m, TSNode attr, bool called, TSNode call) {
  TSNode obj = pysym_child(attr, PYFIELD_OBJECT);
  TSNode name = pysym_child(attr, PYFIELD_ATTRIBUTE);
  if (ts_node_is_null(obj) || ts_node_is_null(name) || pymatch__is_module_ref(m, obj)) return;
  char *nm = pyfile_node_text(m->py, name);
  const KbEntry *e = pymatch__lookup(m, called ? KB_METHOD : KB_ATTRIBUTE, nm);
  /* `def enable_x(self): self.pipe.enable_x()` forwards the caller's choice:
   * the use is wherever enable_x is called, not in its own body */
  const PyFunction *fn = e && called ? pyfile_function_at(m->py, ts_node_start_byte(call)) : NULL;
  if (fn && strcmp(fn->name, nm) == 0) e = NULL;
  if (e) {
    char *subj = xasprintf(called ? ".%s()" : ".%s", nm);
    TSNode span = name;
    Finding *f = pymatch__emit(m, e, span, subj);
    if (f && called) { /* underline through the closing parenthesis */
      f->end_byte = ts_node_end_byte(call);
      f->end_row = ts_node_end_point(call).row;
      f->end_col = ts_node_end_point(call).column;
    }
    if (f && e->fix_kind == KBFIX_RENAME_NAME) pymatch__fix_name(m, f, name, e);
    free(subj);
  }
  free(nm);
}

/* ---- strings ---------------------------------------------------------------- */

static void pymatch__string_hit(Matcher *m, const KbEntry *e, TSNode str, const char *value) {
  uint32_t s = ts_node_start_byte(str), t = ts_node_end_byte(str);
  char *subj = t - s <= 120 ? xstrndup(m->py->text + s, t - s) : xasprintf("\"%s\"", value);
  /* the same string twice on a line (`{"NCCL_X": os.getenv("NCCL_X")}`) is one
   * change: its second edit joins the first finding */
  Finding *last = m->ctx->out->len ? &m->ctx->out->items[m->ctx->out->len - 1] : NULL;
  bool again = last && last->entry == e && last->start_row == ts_node_start_point(str).row &&
               strcmp(last->subject, subj) == 0 && last->start_byte < s;
  Finding *f = again ? last : pymatch__emit(m, e, str, subj);
  if (f && e->fix_kind == KBFIX_STRING_SUB) pymatch__fix_string(m, f, str, e);
  free(subj);
}

/* Checks every string candidate under `value` (a string, f-string,
 * concatenation or conditional expression) against row e. */
static void pymatch__string_value(Matcher *m, const KbEntry *e, TSNode value) {
  TSNode strs[8];
  size_t n = pysyntax_string_candidates(value, strs, 8);
  for (size_t i = 0; i < n; i++) {
    char *v = pysyntax_string_value(m->py, strs[i]);
    if (v && kb_pattern_match(e->value, v)) pymatch__string_hit(m, e, strs[i], v);
    free(v);
  }
}

static bool pymatch__callee_matches(Matcher *m, const KbEntry *e, TSNode fn, const char *qual) {
  if (strcmp(e->pattern, "*") == 0) return true;
  if (e->pattern[0] == '.') {
    if (!pysyntax_is(fn, "attribute")) return false;
    TSNode name = pysym_child(fn, PYFIELD_ATTRIBUTE);
    char *nm = pyfile_node_text(m->py, name);
    bool ok = false;
    /* ".a|.b": compare against each alternative without the dot */
    for (const char *p = e->pattern; p && *p;) {
      const char *bar = strchr(p, '|');
      size_t len = bar ? (size_t)(bar - p) : strlen(p);
      if (len > 1 && p[0] == '.' && strlen(nm) == len - 1 && memcmp(nm, p + 1, len - 1) == 0) ok = true;
      p = bar ? bar + 1 : NULL;
    }
    free(nm);
    return ok;
  }
  return qual && kb_pattern_match(e->pattern, qual);
}

/* Whether a node can evaluate to a string literal (see
 * pysyntax_string_candidates). */
static bool pymatch__stringish(TSNode v) {
  switch (pysym_of(v)) {
  case PYSYM_STRING: case PYSYM_CONCATENATED_STRING: case PYSYM_BINARY_OPERATOR:
  case PYSYM_CONDITIONAL_EXPRESSION: case PYSYM_PARENTHESIZED_EXPRESSION:
    return true;
  default:
    return false;
  }
}

/* Most calls pass no string at all: skip them before looking at any row. */
static bool pymatch__has_string_arg(TSNode args) {
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (pysym_of(a) == PYSYM_KEYWORD_ARGUMENT) a = pysym_child(a, PYFIELD_VALUE);
    if (!ts_node_is_null(a) && pymatch__stringish(a)) return true;
  }
  return false;
}

static void pymatch__call_strings(Matcher *m, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (ts_node_is_null(fn) || pysym_of(args) != PYSYM_ARGUMENT_LIST || !pymatch__has_string_arg(args)) return;
  char *qual = NULL;
  bool qual_done = false;
  for (size_t i = 0; i < m->n_str_rows; i++) {
    const KbEntry *e = m->str_rows[i];
    if (e->match != KB_STRING_ARG) continue;
    if (!qual_done && strcmp(e->pattern, "*") != 0 && e->pattern[0] != '.') {
      qual = pyfile_qualname(m->py, fn);
      qual_done = true;
    }
    if (!pymatch__callee_matches(m, e, fn, qual)) continue;
    TSNode v = pysyntax_argument(m->py, args, e->arg);
    if (!ts_node_is_null(v)) pymatch__string_value(m, e, v);
  }
  free(qual);
}

/* A string tied to a name: comparison, assignment, default, dict pair. */
static void pymatch__named_string(Matcher *m, TSNode name_node, TSNode value) {
  char *name = pysyntax_name_text(m->py, name_node);
  if (!name) return;
  for (size_t i = 0; i < m->n_str_rows; i++) {
    const KbEntry *e = m->str_rows[i];
    if (e->match == KB_NAMED_STRING && kb_pattern_match(e->pattern, name)) pymatch__string_value(m, e, value);
  }
  free(name);
}

static void pymatch__comparison(Matcher *m, TSNode cmp) {
  if (ts_node_named_child_count(cmp) != 2) return;
  TSNode a = ts_node_named_child(cmp, 0), b = ts_node_named_child(cmp, 1);
  if (pysyntax_is(b, "string")) pymatch__named_string(m, a, b);
  else if (pysyntax_is(a, "string")) pymatch__named_string(m, b, a);
}

/* ---- environment variables ------------------------------------------------ */

/* Names of printing and logging calls (print, logger.info, log_dist, ...). */
#define PYMATCH_LOG_CALLS "print|debug|info|warning|warn|error|exception|critical|log|log_dist|print_rank_0"

/* `logger.info("NCCL_SOCKET_IFNAME=%s", os.environ["NCCL_SOCKET_IFNAME"])`:
 * a variable read to be logged configures nothing. */
static bool pymatch__in_log_call(Matcher *m, TSNode n) {
  for (TSNode c = ts_node_parent(n); !ts_node_is_null(c); c = ts_node_parent(c)) {
    PySym sym = pysym_of(c);
    if (sym == PYSYM_EXPRESSION_STATEMENT || sym == PYSYM_BLOCK || sym == PYSYM_MODULE) return false;
    if (sym != PYSYM_CALL) continue;
    TSNode fn = pysym_child(c, PYFIELD_FUNCTION);
    TSNode name = pysym_of(fn) == PYSYM_ATTRIBUTE ? pysym_child(fn, PYFIELD_ATTRIBUTE) : fn;
    char *t = pysym_of(name) == PYSYM_IDENTIFIER ? pyfile_node_text(m->py, name) : NULL;
    bool log = t && kb_pattern_match(PYMATCH_LOG_CALLS, t);
    free(t);
    if (log) return true;
  }
  return false;
}

static void pymatch__env_name(Matcher *m, TSNode str) {
  if (!pysyntax_is(str, "string") || pymatch__in_log_call(m, str)) return;
  char *v = pysyntax_string_value(m->py, str);
  if (!v) return;
  const KbEntry *e = pymatch__lookup(m, KB_ENV, v);
  if (e) pymatch__string_hit(m, e, str, v);
  free(v);
}

static bool pymatch__qual_is(Matcher *m, TSNode n, const char *pattern) {
  char *q = pyfile_qualname(m->py, n);
  bool r = q && kb_pattern_match(pattern, q);
  free(q);
  return r;
}


/* Removing a variable (os.environ.pop, os.unsetenv, del os.environ[...])
 * configures nothing on either stack: only reads and writes are findings. */
static void pymatch__env_call(Matcher *m, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (ts_node_is_null(args) || !pymatch__qual_is(m, fn, kb_template("env-access-calls"))) return;
  TSNode v = pysyntax_argument(m->py, args, "0|key");
  if (!ts_node_is_null(v)) pymatch__env_name(m, v);
}

/* ---- definitions ----------------------------------------------------------- */

static void pymatch__class(Matcher *m, TSNode cls) {
  TSNode supers = pysym_child(cls, PYFIELD_SUPERCLASSES);
  TSNode name = pysym_child(cls, PYFIELD_NAME);
  if (ts_node_is_null(supers) || ts_node_is_null(name)) return;
  uint32_t n = ts_node_named_child_count(supers);
  for (uint32_t i = 0; i < n; i++) {
    char *q = pyfile_qualname(m->py, ts_node_named_child(supers, i));
    const KbEntry *e = q ? pymatch__lookup(m, KB_SUBCLASS, q) : NULL;
    if (e) {
      char *nm = pyfile_node_text(m->py, name);
      char *subj = xasprintf("%s(%s)", nm, q);
      Finding *f = pymatch__emit(m, e, name, subj);
      if (f) f->weight = ts_node_end_point(cls).row - ts_node_start_point(cls).row + 1;
      free(subj);
      free(nm);
    }
    free(q);
  }
}

static void pymatch__decorated(Matcher *m, TSNode dd) {
  TSNode def = pysym_child(dd, PYFIELD_DEFINITION);
  if (ts_node_is_null(def)) return;
  TSNode name = pysym_child(def, PYFIELD_NAME);
  uint32_t n = ts_node_named_child_count(dd);
  for (uint32_t i = 0; i < n; i++) {
    TSNode d = ts_node_named_child(dd, i);
    if (!pysyntax_is(d, "decorator") || ts_node_named_child_count(d) < 1) continue;
    char *q = pyfile_qualname(m->py, ts_node_named_child(d, 0));
    const KbEntry *e = q ? pymatch__lookup(m, KB_DECORATOR, q) : NULL;
    if (e) {
      char *nm = ts_node_is_null(name) ? xstrdup("?") : pyfile_node_text(m->py, name);
      char *subj = xasprintf("@%s %s", q, nm);
      Finding *f = pymatch__emit(m, e, d, subj);
      if (f) f->weight = ts_node_end_point(def).row - ts_node_start_point(def).row + 1;
      free(subj);
      free(nm);
    }
    free(q);
  }
}

/* ---- imports ----------------------------------------------------------------- */

static void pymatch__import_module(Matcher *m, TSNode stmt, TSNode at, const char *module) {
  char *q = xstrdup(module);
  size_t pkg_len = strcspn(module, ".");
  /* the block the statement is in; every top-level statement is in the
   * module's, though each has its own tree (forest.h) */
  TSNode parent = ts_node_parent(stmt);
  uint32_t block = ts_node_is_null(ts_node_parent(parent)) ? 0 : ts_node_start_byte(parent);
  for (;;) {
    const KbEntry *e = pymatch__lookup(m, KB_IMPORT, q);
    if (e) {
      bool again = m->last_import_code && strcmp(m->last_import_code, e->code) == 0 && m->last_import_block == block &&
                   strlen(m->last_import_pkg) == pkg_len && strncmp(m->last_import_pkg, module, pkg_len) == 0;
      if (!again && pymatch__emit(m, e, at, module)) {
        m->last_import_code = e->code;
        snprintf(m->last_import_pkg, sizeof m->last_import_pkg, "%.*s", (int)pkg_len, module);
        m->last_import_block = block;
      }
      break;
    }
    char *dot = strrchr(q, '.');
    if (!dot) break;
    *dot = '\0';
  }
  free(q);
}

/* Whether a name's parent is a module path of an import statement (`from
 * flash_attn.ops import x` after `import flash_attn`): another import of the
 * package, not a use of the name. */
static bool pymatch__in_import(TSNode up) {
  if (pysym_of(up) != PYSYM_DOTTED_NAME) return false;
  TSNode stmt = ts_node_parent(up);
  if (!ts_node_is_null(stmt) && strcmp(ts_node_type(stmt), "aliased_import") == 0) stmt = ts_node_parent(stmt);
  PySym k = pysym_of(stmt);
  return k == PYSYM_IMPORT_STATEMENT || k == PYSYM_IMPORT_FROM_STATEMENT;
}

/* A guarded import (try/except ImportError, an availability branch) whose
 * name is never used, or only for metadata (`xformers.__version__`), probes
 * for the package: the probe works unchanged on the NPU, the uses behind
 * it are the findings. Comments, strings and rebinding (`name = None` in the
 * handler) do not count as uses. */
static bool pymatch__unused(const Matcher *m, const PyBinding *b, TSNode stmt);

static bool pymatch__probe_only(const Matcher *m, const PyBinding *b, TSNode stmt) {
  if (!pyfile_in_ranges(m->py->guarded.items, m->py->guarded.len, ts_node_start_byte(stmt))) return false;
  return pymatch__unused(m, b, stmt);
}

/* Whether identifier id (whose parent is `up`, known to the caller: a parent
 * lookup costs the tree's depth) is what an assignment binds: its left side,
 * or a name of a tuple or list target there (`f, g = None, None`). */
static bool pymatch__assigned(TSNode id, TSNode up) {
  TSNode at = id;
  for (PySym k = pysym_of(up); k == PYSYM_PATTERN_LIST || k == PYSYM_TUPLE_PATTERN || k == PYSYM_LIST_PATTERN;
       k = pysym_of(up)) {
    at = up;
    up = ts_node_parent(up);
  }
  return pysym_of(up) == PYSYM_ASSIGNMENT && ts_node_eq(pysym_child(up, PYFIELD_LEFT), at);
}

/* Whether the assignment around a target (its parent, or a tuple's)
 * assigns a constant: True, 0.5, "fp16", None. */
static bool pymatch__constant_value(TSNode up) {
  while (pysym_of(up) != PYSYM_ASSIGNMENT && !ts_node_is_null(up)) up = ts_node_parent(up);
  TSNode r = ts_node_is_null(up) ? up : pysym_child(up, PYFIELD_RIGHT);
  if (ts_node_is_null(r)) return true;
  const char *t = ts_node_type(r);
  return pysym_of(r) == PYSYM_STRING || pysym_of(r) == PYSYM_INTEGER || strcmp(t, "true") == 0 || strcmp(t, "false") == 0 ||
         strcmp(t, "float") == 0 || strcmp(t, "none") == 0 || strcmp(t, "unary_operator") == 0;
}

/* Whether the name an import binds is never used in its scope: only member
 * names, metadata (`x.__version__`), rebinding and other import statements
 * mention it. */
static bool pymatch__unused(const Matcher *m, const PyBinding *b, TSNode stmt) {
  const char *t = m->py->text;
  size_t n = strlen(b->local);
  context_reads(m->ctx, b->scope_start, b->scope_end); /* uses anywhere in the scope */
  for (uint32_t at = b->scope_start;;) {
    TSNode id = pyfile_next_name(m->py, b->local, n, &at, b->scope_end);
    if (ts_node_is_null(id)) return true;
    uint32_t s = ts_node_start_byte(id), e = ts_node_end_byte(id);
    if (s >= ts_node_start_byte(stmt) && s < ts_node_end_byte(stmt)) continue;
    TSNode up = ts_node_parent(id);
    bool member = pysym_of(up) == PYSYM_ATTRIBUTE && ts_node_eq(pysym_child(up, PYFIELD_ATTRIBUTE), id);
    bool dunder = e + 2 < m->py->len && t[e] == '.' && t[e + 1] == '_' && t[e + 2] == '_';
    bool rebound = pymatch__assigned(id, up);
    if (!member && !dunder && !rebound && !pymatch__in_import(up)) return false;
  }
}

/* from-imports of names with a mapping row: the import line is a finding too,
 * and its fix renames the module so every use keeps working. */
static void pymatch__imports(Matcher *m, TSNode stmt) {
  /* bindings are in statement order: the statement's own are found by
   * binary search, not by a pass over every import of the file */
  uint32_t at0 = ts_node_start_byte(stmt);
  size_t lo = 0, hi = m->py->bindings.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->py->bindings.items[mid].def_byte < at0) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < m->py->bindings.len && m->py->bindings.items[i].def_byte == at0; i++) {
    const PyBinding *b = &m->py->bindings.items[i];
    TSNode at = ts_node_descendant_for_byte_range(stmt, b->module_start, b->module_end);
    if (pymatch__probe_only(m, b, stmt)) continue;
    char *mod = xstrndup(m->py->text + b->module_start, b->module_end - b->module_start);
    /* an unused import of what a CPU build of torch has too (`from torch.cuda import nvtx`)
     * imports fine on the NPU: nothing to port (the "harmless-unused-imports" row) */
    bool harmless = m->harmless && kb_pattern_match(m->harmless, b->from_import ? b->qualname : mod) &&
                    pymatch__unused(m, b, stmt);
    if (!harmless) pymatch__import_module(m, stmt, at, b->from_import ? b->qualname : mod);
    free(mod);
    if (harmless) continue;
    if (!b->from_import && strchr(b->qualname, '.') == NULL) continue;
    const KbEntry *e = pymatch__lookup(m, KB_QUALNAME, b->qualname);
    if (!e) continue;
    TSNode name = b->name_end > b->name_start
                      ? ts_node_descendant_for_byte_range(stmt, b->name_start, b->name_end)
                      : at;
    Finding *f = pymatch__emit(m, e, name, b->qualname);
    if (f && e->fix_kind == KBFIX_RENAME_QUAL) {
      if (pymatch__fix_import(m, f, b, e->fix_from, e->fix_to)) pymatch__need_import(m, f, e);
      else f->fix = FIX_NONE;
    }
  }
}

/* ---- the walk ------------------------------------------------------------------ */

/* `a if torch.cuda.is_available() else b`: both arms are a guarded choice. */
static void pymatch__conditional(Matcher *m, TSNode n) {
  if (ts_node_named_child_count(n) != 3) return;
  ByteRange r = {ts_node_start_byte(n), ts_node_end_byte(n)};
  if (pyfile_is_availability(m->py, ts_node_named_child(n, 1))) array_push(&m->py->guarded, r);
  if (pyfile_is_npu_check(m->py, ts_node_named_child(n, 1))) array_push(&m->py->npu_aware, r);
}

/* `xformers.__version__`: module metadata, not an API (the import is the finding). */
static bool pymatch__dunder(Matcher *m, TSNode n) {
  if (pysym_of(n) != PYSYM_ATTRIBUTE) return false;
  TSNode a = pysym_child(n, PYFIELD_ATTRIBUTE);
  uint32_t s = ts_node_start_byte(a), e = ts_node_end_byte(a);
  return e - s > 4 && memcmp(m->py->text + s, "__", 2) == 0 && memcmp(m->py->text + e - 2, "__", 2) == 0;
}

/* An operand of a comparison (or of a tuple/list compared against), an
 * entry of a mapping ({np.float64: torch.float64}) or of a list assigned as a
 * table: the name is tested or tabulated, not used. */
static bool pymatch__compared(TSNode parent) {
  PySym p = pysym_of(parent);
  if (p == PYSYM_COMPARISON_OPERATOR || p == PYSYM_PAIR) return true; /* also a mapping entry */
  if (p != PYSYM_TUPLE && p != PYSYM_LIST && p != PYSYM_SET) return false;
  /* compared against, or a table: `ID_TO_DTYPE = [torch.float32, torch.float64]` */
  PySym pp = pysym_of(ts_node_parent(parent));
  return pp == PYSYM_COMPARISON_OPERATOR || pp == PYSYM_ASSIGNMENT;
}

static bool pymatch__field_is(TSFieldId field, PyField f) { return field && field == pysym_field_id(f); }

/* `_flash_attn_forward is None`: whether an optional import arrived; a
 * probe, not a use, in every domain. */
static bool pymatch__none_test(TSNode parent) {
  if (pysym_of(parent) != PYSYM_COMPARISON_OPERATOR) return false;
  uint32_t n = ts_node_named_child_count(parent);
  for (uint32_t i = 0; i < n; i++)
    if (pysyntax_is(ts_node_named_child(parent, i), "none")) return true;
  return false;
}

static void pymatch__visit(Matcher *m, TSNode n, PySym sym, TSFieldId field, TSNode parent) {
  switch (sym) {
  case PYSYM_CALL: {
    TSNode fn = pysym_child(n, PYFIELD_FUNCTION);
    if (pysym_of(fn) == PYSYM_ATTRIBUTE) pymatch__member(m, fn, true, n);
    pymatch__call_strings(m, n);
    pymatch__env_call(m, n);
    break;
  }
  case PYSYM_ATTRIBUTE:
  case PYSYM_IDENTIFIER: {
    bool inner = pysym_of(parent) == PYSYM_ATTRIBUTE && pymatch__field_is(field, PYFIELD_OBJECT);
    bool name_only = pymatch__field_is(field, PYFIELD_ATTRIBUTE) || pymatch__field_is(field, PYFIELD_NAME) ||
                     pymatch__field_is(field, PYFIELD_ALIAS);
    /* `flash_attn_func = None` (or `f, g = None, None`) binds a name, it does not use the API;
     * nor does replacing a module's function (`torch.cuda.current_device = torch.xpu.current_device`,
     * another device's shim), unlike setting a flag to a constant (`torch.backends.cudnn.benchmark =
     * True`) */
    bool binding = pymatch__assigned(n, parent) && (sym == PYSYM_IDENTIFIER || !pymatch__constant_value(parent));
    if (inner || name_only || binding || pymatch__dunder(m, n) || pymatch__none_test(parent)) break;
    pymatch__reference(m, n, pymatch__compared(parent));
    bool called = pysym_of(parent) == PYSYM_CALL && pymatch__field_is(field, PYFIELD_FUNCTION);
    if (sym == PYSYM_ATTRIBUTE && !called) pymatch__member(m, n, false, n);
    break;
  }
  case PYSYM_COMPARISON_OPERATOR:
    pymatch__comparison(m, n);
    if (ts_node_named_child_count(n) == 2 && pymatch__qual_is(m, ts_node_named_child(n, 1), "os.environ"))
      pymatch__env_name(m, ts_node_named_child(n, 0));
    break;
  case PYSYM_ASSIGNMENT: {
    TSNode l = pysym_child(n, PYFIELD_LEFT), r = pysym_child(n, PYFIELD_RIGHT);
    if (!ts_node_is_null(l) && !ts_node_is_null(r)) pymatch__named_string(m, l, r);
    break;
  }
  case PYSYM_DEFAULT_PARAMETER:
  case PYSYM_TYPED_DEFAULT_PARAMETER: {
    TSNode l = pysym_child(n, PYFIELD_NAME), r = pysym_child(n, PYFIELD_VALUE);
    if (!ts_node_is_null(l) && !ts_node_is_null(r)) pymatch__named_string(m, l, r);
    break;
  }
  case PYSYM_PAIR: {
    TSNode k = pysym_child(n, PYFIELD_KEY), v = pysym_child(n, PYFIELD_VALUE);
    if (!ts_node_is_null(k) && !ts_node_is_null(v)) {
      pymatch__env_name(m, k);
      pymatch__named_string(m, k, v);
    }
    break;
  }
  case PYSYM_SUBSCRIPT: {
    TSNode v = pysym_child(n, PYFIELD_VALUE), sc = pysym_child(n, PYFIELD_SUBSCRIPT);
    bool removed = pysyntax_is(ts_node_parent(n), "delete_statement");
    if (!removed && !ts_node_is_null(v) && !ts_node_is_null(sc) && pymatch__qual_is(m, v, "os.environ"))
      pymatch__env_name(m, sc);
    break;
  }
  case PYSYM_CONDITIONAL_EXPRESSION:
    pymatch__conditional(m, n);
    break;
  case PYSYM_CLASS_DEFINITION:
    pymatch__class(m, n);
    break;
  case PYSYM_DECORATED_DEFINITION:
    pymatch__decorated(m, n);
    break;
  default:
    break;
  }
}

void *pymatch_begin(AnalyzeCtx *ctx, PyFile *py) {
  if (ctx->kind != FILE_PYTHON || !py) return NULL;
  Matcher *m = xcalloc(1, sizeof *m);
  m->ctx = ctx;
  m->py = py;
  const KbEntry *harmless = kb_lookup(KB_DETECTOR, "harmless-unused-imports", ctx->opt->user_entries, ctx->opt->n_user_entries);
  m->harmless = harmless ? harmless->arg : NULL;
  const KbEntry *tested = kb_lookup(KB_DETECTOR, "type-tested-classes", ctx->opt->user_entries, ctx->opt->n_user_entries);
  m->type_tested = tested ? tested->arg : NULL;
  size_t n;
  const KbEntry *rows = kb_entries(&n);
  for (size_t i = 0; i < ctx->opt->n_user_entries + n && m->n_str_rows < 64; i++) {
    const KbEntry *e = i < ctx->opt->n_user_entries ? &ctx->opt->user_entries[i]
                                                    : &rows[i - ctx->opt->n_user_entries];
    if (e->match == KB_STRING_ARG || e->match == KB_NAMED_STRING) m->str_rows[m->n_str_rows++] = e;
  }
  return m;
}

bool pymatch_visit(void *state, const PyVisit *v) {
  Matcher *m = state;
  switch (v->sym) {
  case PYSYM_IMPORT_STATEMENT:
  case PYSYM_IMPORT_FROM_STATEMENT:
    pymatch__imports(m, v->node);
    return false;
  case PYSYM_COMMENT:
    return false;
  case PYSYM_TYPE: /* an annotation (`x: torch.cuda.Event = None`) names a type; it uses nothing */
    return false;
  case PYSYM_OTHER:
    return true;
  default:
    if (v->sym == PYSYM_CALL && m->type_tested) {
      TSNode t = pymatch__type_tested(m, v->node);
      if (!ts_node_is_null(t)) m->tested = t;
    }
    pymatch__visit(m, v->node, v->sym, v->field, v->parent);
    return true;
  }
}

void pymatch_end(void *state) { free(state); }
