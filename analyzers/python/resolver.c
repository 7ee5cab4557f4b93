/* resolver: see resolver.h. One TSTreeCursor walk collects import bindings
 * and file facts; lookups go through an index of the bindings by name. */
#include "analyzers/engine/forest.h"
#include "analyzers/python/resolver.h"
#include "analyzers/python/pysym.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdlib.h>

/* Conditions longer than this are not inspected for availability flags:
 * real guards are short, and it bounds the work on pathological input. */
#define RESOLVER_COND_MAX 512
/* Attribute chains longer than this have no qualified name (real API names
 * have a handful of components; generated `x.a.a.a...` would otherwise make
 * every prefix cost the chain's length). */
#define RESOLVER_MAX_CHAIN 64

typedef struct {
  TSNode node;
  uint32_t scope_start, scope_end; /* innermost function scope */
  bool requires;   /* a function's frame: a statement of its body already requires a package */
} Frame;

static unsigned resolver__name_bit(const char *name, size_t n) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)name[i]) * 16777619u;
  return h & 255;
}

static bool resolver__is(TSNode n, const char *type) { return strcmp(ts_node_type(n), type) == 0; }

char *pyfile_node_text(const PyFile *py, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e > py->len) e = (uint32_t)py->len;
  if (s > e) s = e;
  return xstrndup(py->text + s, e - s);
}

/* Occurrences of needle in the first RESOLVER_COND_MAX bytes of a node. */
/* Occurrences of needle[0, k) in n's text (up to RESOLVER_COND_MAX bytes). */
static size_t resolver__count_n(const PyFile *py, TSNode n, const char *needle, size_t k) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e - s > RESOLVER_COND_MAX) e = s + RESOLVER_COND_MAX;
  size_t count = 0;
  if (k == 0) return 0;
  for (const char *p = py->text + s, *end = py->text + e; (p = memmem(p, (size_t)(end - p), needle, k)) != NULL; p++)
    count++;
  return count;
}

static size_t resolver__count(const PyFile *py, TSNode n, const char *needle) {
  return resolver__count_n(py, n, needle, strlen(needle));
}

static bool resolver__text_has(const PyFile *py, TSNode n, const char *needle) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e - s > RESOLVER_COND_MAX) e = s + RESOLVER_COND_MAX;
  return memmem(py->text + s, e - s, needle, strlen(needle)) != NULL;
}

/* Whether cond names one of the '|'-separated texts of `needles`. */
static bool resolver__text_has_any(const PyFile *py, TSNode cond, const char *needles) {
  uint32_t s = ts_node_start_byte(cond), e = ts_node_end_byte(cond);
  if (e - s > RESOLVER_COND_MAX) e = s + RESOLVER_COND_MAX;
  return util_has_any(py->text + s, e - s, needles);
}

static unsigned resolver__name_hash(const char *name, size_t n) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)name[i]) * 16777619u;
  return h;
}

/* The slot of a name: where its bindings are, or the empty slot for it. */
static size_t resolver__name_slot(const PyFile *py, const char *name, size_t n) {
  size_t mask = py->n_name_slots - 1, i = resolver__name_hash(name, n) & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t first = py->name_slots[i].first;
    if (!first) return i;
    const char *local = py->bindings.items[first - 1].local;
    if (strlen(local) == n && memcmp(local, name, n) == 0) return i;
  }
}

/* Appends binding `idx` to its name's list (kept in index order). */
static void resolver__index_add(PyFile *py, size_t idx) {
  const char *local = py->bindings.items[idx].local;
  size_t s = resolver__name_slot(py, local, strlen(local));
  if (py->name_slots[s].first) {
    py->name_next.items[py->name_slots[s].last - 1] = (uint32_t)idx + 1;
  } else {
    py->name_slots[s].first = (uint32_t)idx + 1;
    py->n_names++;
  }
  py->name_slots[s].last = (uint32_t)idx + 1;
}

static void resolver__index(PyFile *py) {
  uint32_t none = 0;
  array_push(&py->name_next, none);
  if (2 * (py->n_names + 1) > py->n_name_slots) { /* grow: rebuild every list in index order */
    free(py->name_slots);
    py->n_name_slots = py->n_name_slots ? 2 * py->n_name_slots : 16;
    py->name_slots = xcalloc(py->n_name_slots, sizeof *py->name_slots);
    py->n_names = 0;
    for (size_t i = 0; i < py->bindings.len; i++) py->name_next.items[i] = 0;
    for (size_t i = 0; i < py->bindings.len; i++) resolver__index_add(py, i);
    return;
  }
  resolver__index_add(py, py->bindings.len - 1);
}

static void resolver__bind(PyFile *py, const Frame *f, const char *local, size_t local_len,
                           const char *qual, TSNode stmt, TSNode module, TSNode name, bool from) {
  /* an import in code that never runs with torch_npu binds nothing, except for type checkers
   * (`if TYPE_CHECKING:`: a lazily loaded package's names, pyfacts.h PyFactImport.lazy) */
  uint32_t at = ts_node_start_byte(stmt);
  if (pyfile_in_ranges(py->dead.items, py->dead.len, at) &&
      !pyfile_in_ranges(py->type_checking.items, py->type_checking.len, at))
    return;
  PyBinding b = {0};
  b.local = xstrndup(local, local_len);
  b.qualname = xstrdup(qual);
  b.scope_start = f->scope_start;
  b.scope_end = f->scope_end;
  b.module_scope = f->scope_start == 0 && f->scope_end == py->len;
  b.def_byte = ts_node_start_byte(stmt);
  if (!ts_node_is_null(module)) {
    b.module_start = ts_node_start_byte(module);
    b.module_end = ts_node_end_byte(module);
  }
  if (!ts_node_is_null(name)) {
    b.name_start = ts_node_start_byte(name);
    b.name_end = ts_node_end_byte(name);
  }
  b.from_import = from;
  unsigned bit = resolver__name_bit(b.local, strlen(b.local));
  py->name_bloom[bit >> 6] |= 1ull << (bit & 63);
  if (util_starts_with(b.qualname, "torch_npu")) py->imports_torch_npu = true;
  if (kb_pattern_match(kb_template("transfer-to-npu-module"), b.qualname)) py->transfer_to_npu = true;
  array_push(&py->bindings, b);
  resolver__index(py);
}

static void resolver__note_import(PyFile *py, const char *module, TSNode stmt) {
  TSPoint at = ts_node_start_point(stmt);
  PyImport im = {xstrdup(module), at.row, ts_node_start_byte(stmt), at.column};
  array_push(&py->imports, im);
}

/* `import a.b`, `import a.b as c` */
static void resolver__import(PyFile *py, const Frame *f, TSNode stmt) {
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    TSNode dotted = c, alias = {0};
    if (resolver__is(c, "aliased_import")) {
      dotted = pysym_child(c, PYFIELD_NAME);
      alias = pysym_child(c, PYFIELD_ALIAS);
    } else if (!resolver__is(c, "dotted_name")) {
      continue;
    }
    if (ts_node_is_null(dotted)) continue;
    char *mod = pyfile_node_text(py, dotted);
    resolver__note_import(py, mod, stmt);
    if (!ts_node_is_null(alias)) {
      char *a = pyfile_node_text(py, alias);
      resolver__bind(py, f, a, strlen(a), mod, stmt, dotted, alias, false);
      free(a);
    } else {
      /* `import a.b.c` binds `a` to the package a; `a.b.c` then resolves by chain. */
      size_t root = strcspn(mod, ".");
      char *rootq = xstrndup(mod, root);
      resolver__bind(py, f, mod, root, rootq, stmt, dotted, (TSNode){0}, false);
      free(rootq);
      /* the submodule itself is imported too (for transfer_to_npu awareness) */
      if (kb_pattern_match(kb_template("transfer-to-npu-module"), mod)) py->transfer_to_npu = true;
    }
    free(mod);
  }
}

/* `from m import a`, `from m import a as b`, `from . import x` */
static void resolver__import_from(PyFile *py, const Frame *f, TSNode stmt) {
  TSNode module = pysym_child(stmt, PYFIELD_MODULE_NAME);
  if (ts_node_is_null(module)) return;
  char *mod = pyfile_node_text(py, module);
  resolver__note_import(py, mod, stmt);
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (ts_node_eq(c, module)) continue;
    TSNode name = c, alias = {0};
    if (resolver__is(c, "aliased_import")) {
      name = pysym_child(c, PYFIELD_NAME);
      alias = pysym_child(c, PYFIELD_ALIAS);
    } else if (!resolver__is(c, "dotted_name")) {
      continue;
    }
    if (ts_node_is_null(name)) continue;
    char *nm = pyfile_node_text(py, name);
    bool rel_root = mod[strspn(mod, ".")] == '\0'; /* "from . import x" */
    char *qual = xasprintf("%s%s%s", mod, rel_root ? "" : ".", nm);
    if (kb_pattern_match(kb_template("transfer-to-npu-module"), qual)) py->transfer_to_npu = true;
    char *local = ts_node_is_null(alias) ? xstrdup(nm) : pyfile_node_text(py, alias);
    resolver__bind(py, f, local, strlen(local), qual, stmt, module, name, true);
    /* `from pkg import sub` may import the submodule pkg.sub: the import
     * graph keeps it (resolving it to a module is the graph's job) */
    resolver__note_import(py, qual, stmt);
    free(local);
    free(qual);
    free(nm);
  }
  free(mod);
}

/* Whether a clause (`except ...:`, `else:`) raises in its block: then what it
 * stands for is required, not optional, and there is no fallback. */
static bool resolver__clause_raises(TSNode clause) {
  uint32_t n = ts_node_named_child_count(clause);
  for (uint32_t i = 0; i < n; i++) {
    TSNode b = ts_node_named_child(clause, i);
    if (!resolver__is(b, "block")) continue;
    for (uint32_t k = 0; k < ts_node_named_child_count(b); k++)
      if (resolver__is(ts_node_named_child(b, k), "raise_statement")) return true;
  }
  return false;
}

static bool resolver__is_import_guard(const PyFile *py, TSNode except_clause) {
  uint32_t n = ts_node_named_child_count(except_clause);
  bool typed = false;
  if (resolver__clause_raises(except_clause)) return false; /* `except ImportError: raise ...` */
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(except_clause, i);
    if (resolver__is(c, "block") || resolver__is(c, "comment")) continue;
    typed = true;
    if (resolver__text_has(py, c, "ImportError") || resolver__text_has(py, c, "ModuleNotFoundError") ||
        resolver__text_has(py, c, "Exception"))
      return true;
  }
  return !typed; /* bare `except:` catches ImportError too */
}

/* `try: f = torch.distributed.all_gather_into_tensor` / `except
 * AttributeError: f = torch.distributed._all_gather_base`: the handler is the
 * fallback for an older torch than torch_npu runs on. */
static void resolver__attribute_fallback(PyFile *py, TSNode body, TSNode handler) {
  uint32_t n = ts_node_named_child_count(handler);
  bool attr = false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(handler, i);
    if (resolver__is(c, "block") || resolver__is(c, "comment")) continue;
    attr = resolver__text_has(py, c, "AttributeError") && !resolver__text_has(py, c, "ImportError") &&
           !resolver__text_has(py, c, "Exception");
  }
  if (!attr || !resolver__text_has(py, body, "torch.")) return;
  ByteRange r = {ts_node_start_byte(handler), ts_node_end_byte(handler)};
  array_push(&py->dead, r);
}

/* Node n runs only where an optional package loaded (the try body of a
 * guarded import, the branch a flag or an import check opens): a guarded
 * range, and one a call in it is optional from (PYCALL_OPTIONAL). */
static void resolver__optional_branch(PyFile *py, TSNode n) {
  ByteRange r = {ts_node_start_byte(n), ts_node_end_byte(n)};
  array_push(&py->guarded, r);
  array_push(&py->optional_only, r);
}

static bool resolver__word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static void resolver__try(PyFile *py, TSNode stmt) {
  TSNode body = pysym_child(stmt, PYFIELD_BODY);
  if (ts_node_is_null(body)) return;
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++)
    if (resolver__is(ts_node_named_child(stmt, i), "except_clause"))
      resolver__attribute_fallback(py, body, ts_node_named_child(stmt, i));
  /* `try: from torch.amp import custom_fwd` / `except ImportError: from
   * torch.cuda.amp import custom_fwd`: the handler is the location of the API
   * in an older torch than torch_npu runs on */
  bool torch_body = resolver__text_has(py, body, "from torch") || resolver__text_has(py, body, "import torch");
  for (uint32_t i = 0; i < n && torch_body; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (resolver__is(c, "except_clause") && resolver__is_import_guard(py, c) && resolver__text_has(py, c, "from torch.")) {
      ByteRange r = {ts_node_start_byte(c), ts_node_end_byte(c)};
      array_push(&py->dead, r);
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (resolver__is(c, "except_clause") && resolver__is_import_guard(py, c)) {
      resolver__optional_branch(py, body);
      return;
    }
  }
}

/* A condition that tests whether an optional backend is usable. */
bool pyfile_is_availability(const PyFile *py, TSNode cond) {
  /* torch.cuda.is_available() is not a fallback for the NPU: on an Ascend
   * machine it is False and the CUDA branch is silently skipped (ASC211).
   * Its text holds the needles "is_available" and "_available" once each, so
   * a needle counts only where it occurs more often than that call. */
  const char *call = kb_template("cuda-availability-call"), *needles = kb_template("availability-tests");
  size_t cuda = call ? resolver__count(py, cond, call) : 0;
  const char *needle;
  size_t n;
  for (const char *p = needles; util_alt_next(&p, &needle, &n);) {
    size_t inside = call && n && memmem(call, strlen(call), needle, n) ? cuda : 0;
    if (resolver__count_n(py, cond, needle, n) > inside) return true;
  }
  return false;
}

/* A flag the user turns on (`args.enable_xformers_memory_efficient_attention`,
 * USE_FLASH_ATTN) rather than a test of what is installed. */
static bool resolver__is_optin(const PyFile *py, TSNode cond) {
  const char *probes = kb_template("installed-tests"), *optin = kb_template("opt-in-flag-words");
  if (probes && resolver__text_has_any(py, cond, probes)) return false;
  return optin && resolver__text_has_any(py, cond, optin);
}

bool pyfile_is_npu_check(const PyFile *py, TSNode cond) {
  return resolver__text_has(py, cond, "npu") || resolver__text_has(py, cond, "NPU");
}

/* `if torch_major >= 2:`, `if is_torch_version(">=", "2.0.0"):`,
 * `if is_torch_min_version("1.13.0"):`, `if hasattr(F,
 * "scaled_dot_product_attention"):` -- their else branch is the fallback for
 * an older torch than torch_npu runs on. */
static bool resolver__is_torch2_check(const PyFile *py, TSNode cond) {
  if (resolver__text_has(py, cond, "scaled_dot_product_attention")) return !resolver__text_has(py, cond, "not ");
  bool at_least = resolver__text_has(py, cond, ">") || resolver__text_has(py, cond, "min_version");
  if (!resolver__text_has(py, cond, "version") || !at_least || resolver__text_has(py, cond, "not ") ||
      resolver__text_has(py, cond, " or ") || resolver__text_has(py, cond, "<"))
    return false;
  /* torch_npu needs torch >= 2.1: any check for 1.x or 2.0 holds there */
  const char *two = kb_template("torch2-version-tests");
  return two && resolver__text_has_any(py, cond, two);
}

/* The else/elif part, or, when the if body ends in a return and there is no
 * else, the rest of the enclosing block (`if hasattr(F, "sdpa"): return ...`). */
static void resolver__dead_else(PyFile *py, TSNode stmt) {
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysym_of(c) == PYSYM_ELIF_CLAUSE || resolver__is(c, "else_clause")) {
      ByteRange r = {ts_node_start_byte(c), ts_node_end_byte(stmt)};
      array_push(&py->dead, r);
      return;
    }
  }
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  uint32_t nb = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  TSNode last = nb ? ts_node_named_child(body, nb - 1) : (TSNode){0};
  TSNode outer = ts_node_parent(stmt);
  if (ts_node_is_null(last) || !resolver__is(last, "return_statement") || !resolver__is(outer, "block")) return;
  ByteRange r = {ts_node_end_byte(stmt), ts_node_end_byte(outer)};
  array_push(&py->dead, r);
}

/* `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`): its body is for type
 * checkers only and never runs; its imports load nothing. */
static void resolver__type_checking(PyFile *py, TSNode stmt, TSNode cond) {
  uint32_t s = ts_node_start_byte(cond), e = ts_node_end_byte(cond);
  static const char *const names[] = {"TYPE_CHECKING", "typing.TYPE_CHECKING"};
  bool is = false;
  for (size_t i = 0; i < 2 && !is; i++) is = e - s == strlen(names[i]) && memcmp(py->text + s, names[i], e - s) == 0;
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  if (!is || ts_node_is_null(body)) return;
  ByteRange r = {ts_node_start_byte(body), ts_node_end_byte(body)};
  array_push(&py->dead, r);
  array_push(&py->type_checking, r);
}

static bool resolver__else_raises(TSNode stmt) {
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++)
    if (resolver__is(ts_node_named_child(stmt, i), "else_clause") && resolver__clause_raises(ts_node_named_child(stmt, i)))
      return true;
  return false;
}

/* `if torch.version.cuda:` / `if torch.version.hip:` / `is not None`: a
 * CUDA or ROCm build of torch, which torch_npu never is, so the branch never
 * runs on Ascend (`is None` / `not`: the else part). */
static void resolver__cuda_build_check(PyFile *py, TSNode stmt, TSNode cond) {
  const char *build = kb_template("cuda-build-check");
  if (!build || !resolver__text_has_any(py, cond, build) || resolver__text_has(py, cond, " or ")) return;
  bool negated = resolver__text_has(py, cond, "is None") || resolver__text_has(py, cond, "not ");
  if (negated && resolver__text_has(py, cond, "is not None")) negated = false;
  if (negated) {
    resolver__dead_else(py, stmt);
    return;
  }
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  if (ts_node_is_null(body)) return;
  ByteRange r = {ts_node_start_byte(body), ts_node_end_byte(body)};
  array_push(&py->dead, r);
}

/* Whether identifier id names a guarded import where it is read. */
static bool resolver__is_guarded_name(PyFile *py, TSNode id) {
  if (!resolver__is(id, "identifier")) return false;
  char *name = pyfile_node_text(py, id);
  const PyBinding *b = pyfile_lookup(py, name, strlen(name), ts_node_start_byte(id));
  free(name);
  return b && pyfile_in_ranges(py->guarded.items, py->guarded.len, b->def_byte);
}

/* `if f is not None:` or `if f:` where f is imported in a guarded `try:`
 * (its handler's fallback, usually None): the branch runs only where the
 * package is installed, and the code after it is the fallback. Reads the
 * bindings and guards of earlier statements (see resolver__env). */
static bool resolver__checks_guarded_import(PyFile *py, TSNode cond) {
  TSNode id = cond;
  if (pysym_of(cond) == PYSYM_COMPARISON_OPERATOR) {
    if (ts_node_named_child_count(cond) != 2 || !resolver__text_has(py, cond, " is not ") ||
        !resolver__is(ts_node_named_child(cond, 1), "none"))
      return false;
    id = ts_node_named_child(cond, 0);
  }
  return resolver__is_guarded_name(py, id);
}

/* `f is None` where f is a guarded import (resolver__checks_guarded_import). */
static bool resolver__guarded_is_none(PyFile *py, TSNode cond) {
  if (pysym_of(cond) != PYSYM_COMPARISON_OPERATOR || ts_node_named_child_count(cond) != 2 ||
      resolver__text_has(py, cond, " is not ") || !resolver__text_has(py, cond, " is ") ||
      !resolver__is(ts_node_named_child(cond, 1), "none"))
    return false;
  return resolver__is_guarded_name(py, ts_node_named_child(cond, 0));
}

/* Whether cond is `f is None`, or an `or` of tests one of which is (`if
 * offset == 0 or flash_attn_with_kvcache is None: <fallback> else: <use>`):
 * the else runs only where the package loaded. The chain `a or b or c`
 * nests to the left: one loop down its left operands. */
static bool resolver__falls_back_when_none(PyFile *py, TSNode cond) {
  for (cond = pysyntax_unparen(cond); !ts_node_is_null(cond); cond = pysyntax_unparen(pysym_child(cond, PYFIELD_LEFT))) {
    if (!resolver__is(cond, "boolean_operator")) return resolver__guarded_is_none(py, cond);
    TSNode op = pysym_child(cond, PYFIELD_OPERATOR), right = pysym_child(cond, PYFIELD_RIGHT);
    if (ts_node_is_null(op) || strcmp(ts_node_type(op), "or") != 0) return false;
    if (!ts_node_is_null(right) && resolver__guarded_is_none(py, right)) return true;
  }
  return false;
}

/* The else of an if without elifs, or a null node. */
static TSNode resolver__only_else(TSNode stmt) {
  TSNode e = {0};
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysym_of(c) == PYSYM_ELIF_CLAUSE) return (TSNode){0};
    if (resolver__is(c, "else_clause")) e = c;
  }
  return e;
}

/* The branches of an if statement (its own and its elifs') that test a
 * guarded import, as guarded ranges, unless its else raises (then the
 * package is required); the else of a test that takes the fallback when the
 * import is None. */
static void resolver__import_checks(PyFile *py, TSNode stmt, TSNode cond) {
  if (resolver__else_raises(stmt)) return;
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  if (!ts_node_is_null(body) && resolver__checks_guarded_import(py, cond)) {
    resolver__optional_branch(py, body);
  }
  TSNode els = resolver__only_else(stmt);
  if (!ts_node_is_null(els) && resolver__falls_back_when_none(py, cond)) resolver__optional_branch(py, els);
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysym_of(c) != PYSYM_ELIF_CLAUSE) continue;
    TSNode ec = pysym_child(c, PYFIELD_CONDITION), eb = pysym_child(c, PYFIELD_CONSEQUENCE);
    if (ts_node_is_null(ec) || ts_node_is_null(eb) || !resolver__checks_guarded_import(py, ec)) continue;
    resolver__optional_branch(py, eb);
  }
}

/* Whether an if without else ends its body in a return and is followed by
 * more statements of its block: `if <fast>: return fast(x)` then the
 * fallback, stylegan3's `if impl == 'cuda' and x.device.type == 'cuda' and
 * _init(): return _plugin...; return _ref(x)`. */
static bool resolver__returns_to_rest(TSNode stmt, TSNode body) {
  uint32_t nb = ts_node_named_child_count(body);
  TSNode last = nb ? ts_node_named_child(body, nb - 1) : (TSNode){0};
  TSNode next = ts_node_next_named_sibling(stmt);
  while (!ts_node_is_null(next) && pysym_of(next) == PYSYM_COMMENT) next = ts_node_next_named_sibling(next);
  return !ts_node_is_null(last) && resolver__is(last, "return_statement") && !ts_node_is_null(next);
}

/* `if torch.cuda.is_available() and x.is_cuda: <fast path> else: <fallback>`,
 * or the same ending in a return with the fallback after it: the branch is
 * one the NPU never takes while the fallback runs there. Only a plain test
 * (no `not`, no `or`) with no else that raises. */
static void resolver__cuda_gate(PyFile *py, TSNode stmt, TSNode cond) {
  if (!resolver__text_has_any(py, cond, kb_template("cuda-device-gates")) || resolver__text_has(py, cond, "not ") ||
      resolver__text_has(py, cond, " or ") || resolver__else_raises(stmt))
    return;
  bool has_else = false, has_elif = false;
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    has_else |= resolver__is(ts_node_named_child(stmt, i), "else_clause");
    has_elif |= pysym_of(ts_node_named_child(stmt, i)) == PYSYM_ELIF_CLAUSE;
  }
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  if (ts_node_is_null(body) || (!has_else && (has_elif || !resolver__returns_to_rest(stmt, body)))) return;
  ByteRange r = {ts_node_start_byte(body), ts_node_end_byte(body)};
  array_push(&py->cuda_gated, r);
}

static int resolver__flag_test(PyFile *py, TSNode cond);
static void resolver__flag_checks(PyFile *py, TSNode stmt, TSNode cond);

/* `return a if not self.use_flash_attn else b`, `x = b if has_flash_attn else a`:
 * the operand the flag picks runs only where the package loaded. Only a
 * conditional that is the whole value of a return or an assignment. */
static void resolver__flag_conditional(PyFile *py, TSNode stmt) {
  TSNode v = ts_node_named_child_count(stmt) == 1 ? ts_node_named_child(stmt, 0) : (TSNode){0};
  if (!ts_node_is_null(v) && pysym_of(v) == PYSYM_ASSIGNMENT) v = pysym_child(v, PYFIELD_RIGHT);
  if (ts_node_is_null(v) || pysym_of(v) != PYSYM_CONDITIONAL_EXPRESSION || ts_node_named_child_count(v) != 3) return;
  int ft = resolver__flag_test(py, ts_node_named_child(v, 1));
  if (ft == 0) return;
  TSNode pick = ts_node_named_child(v, ft > 0 ? 0 : 2);
  resolver__optional_branch(py, pick);
}

/* The attribute name of an option test: `obj.x`, or `obj.x > 0` / `obj.x != 0`, where obj is a
 * name other than self or `self.<name>`; a null node for anything else. */
static TSNode resolver__option_leaf(const PyFile *py, TSNode leaf) {
  leaf = pysyntax_unparen(leaf);
  if (pysym_of(leaf) == PYSYM_COMPARISON_OPERATOR && ts_node_named_child_count(leaf) == 2 && ts_node_child_count(leaf) == 3) {
    const char *op = ts_node_type(ts_node_child(leaf, 1));
    TSNode right = ts_node_named_child(leaf, 1);
    uint32_t rs = ts_node_start_byte(right), re = ts_node_end_byte(right);
    bool zero = (resolver__is(right, "integer") || resolver__is(right, "float")) && re > rs &&
                strspn(py->text + rs, "0.") == re - rs;
    if (!zero || (strcmp(op, ">") != 0 && strcmp(op, "!=") != 0)) return (TSNode){0};
    leaf = pysyntax_unparen(ts_node_named_child(leaf, 0));
  }
  if (pysym_of(leaf) != PYSYM_ATTRIBUTE) return (TSNode){0};
  TSNode obj = pysym_child(leaf, PYFIELD_OBJECT), name = pysym_child(leaf, PYFIELD_ATTRIBUTE);
  if (ts_node_is_null(obj) || ts_node_is_null(name)) return (TSNode){0};
  if (pysym_of(obj) == PYSYM_ATTRIBUTE) { /* self.opt.x */
    TSNode base = pysym_child(obj, PYFIELD_OBJECT);
    return !ts_node_is_null(base) && pysyntax_is_name(py, base, "self", 4) ? name : (TSNode){0};
  }
  return pysym_of(obj) == PYSYM_IDENTIFIER && !pysyntax_is_name(py, obj, "self", 4) ? name : (TSNode){0};
}

/* The option a condition requires on: an option test, or one operand of an
 * `and` chain (nested to the left: each right operand, then the last
 * left); with `negated`, `not <option test>`. */
static TSNode resolver__option_required(const PyFile *py, TSNode cond, bool negated) {
  cond = pysyntax_unparen(cond);
  if (negated) {
    if (ts_node_is_null(cond) || !resolver__is(cond, "not_operator")) return (TSNode){0};
    return resolver__option_leaf(py, ts_node_named_child(cond, 0));
  }
  for (;;) {
    if (ts_node_is_null(cond)) return cond;
    TSNode op = resolver__is(cond, "boolean_operator") ? pysym_child(cond, PYFIELD_OPERATOR) : (TSNode){0};
    bool and_op = !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
    TSNode hit = resolver__option_leaf(py, and_op ? pysym_child(cond, PYFIELD_RIGHT) : cond);
    if (!ts_node_is_null(hit) || !and_op) return hit;
    cond = pysyntax_unparen(pysym_child(cond, PYFIELD_LEFT));
  }
}

static void resolver__option_gate(PyFile *py, TSNode body, TSNode name) {
  if (ts_node_is_null(body) || ts_node_is_null(name)) return;
  ByteRange r = {ts_node_start_byte(body), ts_node_end_byte(body)}, nm = {ts_node_start_byte(name), ts_node_end_byte(name)};
  array_push(&py->option_gates, r);
  array_push(&py->option_names, nm);
}

/* The branches of an if statement that run only when an option is on
 * (PyFile.option_gates): its body and its elifs' by their own tests, the
 * else of a lone `if not <option>:`. */
static void resolver__option_gates(PyFile *py, TSNode stmt, TSNode cond) {
  resolver__option_gate(py, pysym_child(stmt, PYFIELD_CONSEQUENCE), resolver__option_required(py, cond, false));
  uint32_t n = ts_node_named_child_count(stmt);
  bool elif = false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysym_of(c) == PYSYM_ELIF_CLAUSE) {
      elif = true;
      resolver__option_gate(py, pysym_child(c, PYFIELD_CONSEQUENCE),
                            resolver__option_required(py, pysym_child(c, PYFIELD_CONDITION), false));
    } else if (resolver__is(c, "else_clause") && !elif) {
      resolver__option_gate(py, pysym_child(c, PYFIELD_BODY), resolver__option_required(py, cond, true));
    }
  }
}

static void resolver__if(PyFile *py, TSNode stmt, const Frame *parent) {
  TSNode cond = pysym_child(stmt, PYFIELD_CONDITION);
  if (ts_node_is_null(cond)) return;
  if (resolver__is(parent->node, "module") && resolver__text_has(py, cond, "__name__") &&
      resolver__text_has(py, cond, "__main__")) {
    py->has_main_guard = true;
    ByteRange r = {ts_node_start_byte(stmt), ts_node_end_byte(stmt)};
    array_push(&py->main_blocks, r);
  }
  /* `if is_x_available(): ... else: raise ...` requires x: no fallback */
  if (pyfile_is_availability(py, cond) && !resolver__else_raises(stmt)) {
    ByteRange r = {ts_node_start_byte(stmt), ts_node_end_byte(stmt)};
    array_push(&py->guarded, r);
    bool optin = resolver__is_optin(py, cond);
    if (optin) array_push(&py->optin, r);
    TSNode then = pysym_child(stmt, PYFIELD_CONSEQUENCE);
    /* the branch a plain availability test opens (`if is_flash_attn_available():`), not its else */
    if (!optin && !ts_node_is_null(then) && !resolver__text_has(py, cond, "not ") && !resolver__text_has(py, cond, " or ")) {
      ByteRange b = {ts_node_start_byte(then), ts_node_end_byte(then)};
      array_push(&py->optional_only, b);
    }
  }
  resolver__import_checks(py, stmt, cond);
  resolver__flag_checks(py, stmt, cond);
  resolver__cuda_gate(py, stmt, cond);
  if (resolver__is_torch2_check(py, cond)) resolver__dead_else(py, stmt);
  resolver__type_checking(py, stmt, cond);
  resolver__cuda_build_check(py, stmt, cond);
  resolver__option_gates(py, stmt, cond);
  /* `if cuda: ... elif npu: ...` has its Ascend path in another branch */
  bool npu = pyfile_is_npu_check(py, cond);
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n && !npu; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysym_of(c) == PYSYM_ELIF_CLAUSE) {
      TSNode ec = pysym_child(c, PYFIELD_CONDITION);
      npu = !ts_node_is_null(ec) && pyfile_is_npu_check(py, ec);
    }
  }
  if (npu) {
    ByteRange r = {ts_node_start_byte(stmt), ts_node_end_byte(stmt)};
    array_push(&py->npu_aware, r);
  }
}

static bool resolver__is_inference_ctx(const PyFile *py, TSNode n) {
  return resolver__text_has(py, n, "no_grad") || resolver__text_has(py, n, "inference_mode");
}

/* The left operands of `and` items of a with clause (PyFile.unentered). */
static void resolver__unentered(PyFile *py, TSNode clause) {
  uint32_t n = ts_node_named_child_count(clause);
  for (uint32_t i = 0; i < n; i++) {
    TSNode item = ts_node_named_child(clause, i);
    TSNode v = resolver__is(item, "with_item") ? pysym_child(item, PYFIELD_VALUE) : (TSNode){0};
    if (ts_node_is_null(v) || !resolver__is(v, "boolean_operator")) continue;
    TSNode op = pysym_child(v, PYFIELD_OPERATOR), left = pysym_child(v, PYFIELD_LEFT);
    if (ts_node_is_null(op) || ts_node_is_null(left) || strcmp(ts_node_type(op), "and") != 0) continue;
    ByteRange r = {ts_node_start_byte(left), ts_node_end_byte(left)};
    array_push(&py->unentered, r);
  }
}

static void resolver__with(PyFile *py, TSNode stmt) {
  uint32_t n = ts_node_named_child_count(stmt);
  bool inference = false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (!resolver__is(c, "with_clause")) continue;
    resolver__unentered(py, c);
    if (!inference && resolver__is_inference_ctx(py, c)) {
      ByteRange r = {ts_node_start_byte(stmt), ts_node_end_byte(stmt)};
      array_push(&py->inference, r);
      inference = true;
    }
  }
}

typedef enum { SKIP_NONE, SKIP_GUARD, SKIP_DEAD } ResolverSkip;

/* What a test decorator says about where the test runs:
 *  - `@unittest.skip(...)`, `@pytest.mark.skip`: nowhere (dead);
 *  - `@require_torch_gpu`, `@skipIf(torch_device != "cuda")`, `@skipIf(not
 *    is_xformers_available())`: only with CUDA or a CUDA-only package, so
 *    never on the NPU (dead); the "cuda" of the condition is not code to port;
 *  - `@skipIf(not torch.cuda.is_available())`: a GPU test the NPU would skip;
 *    the condition is the migration item, the test is guarded. */
static ResolverSkip resolver__skip_kind(PyFile *py, TSNode decorator) {
  TSNode e = ts_node_named_child_count(decorator) ? ts_node_named_child(decorator, 0) : (TSNode){0};
  TSNode callee = resolver__is(e, "call") ? pysym_child(e, PYFIELD_FUNCTION) : e;
  if (ts_node_is_null(callee)) return SKIP_NONE;
  char *t = pyfile_node_text(py, callee);
  const char *last = t ? strrchr(t, '.') : NULL;
  last = last ? last + 1 : t;
  ResolverSkip k = SKIP_NONE;
  /* the decorator names are lists in kb_meta.def */
  if (last && (kb_pattern_match(kb_template("test-skip-decorators"), last) ||
               kb_pattern_match(kb_template("test-cuda-gate-decorators"), last)))
    k = SKIP_DEAD;
  bool skip_if = last && kb_pattern_match(kb_template("test-skip-if-decorators"), last);
  free(t);
  if (k != SKIP_NONE || !skip_if) return k;
  TSNode args = pysym_child(e, PYFIELD_ARGUMENTS);
  TSNode cond = !ts_node_is_null(args) && ts_node_named_child_count(args) ? ts_node_named_child(args, 0) : (TSNode){0};
  if (ts_node_is_null(cond)) return SKIP_NONE;
  const char *avail = kb_template("cuda-availability-call"), *count = kb_template("cuda-device-count-call");
  if ((avail && resolver__text_has(py, cond, avail)) || (count && resolver__text_has(py, cond, count)))
    return SKIP_GUARD;
  if (!pyfile_is_availability(py, cond) && !resolver__text_has(py, cond, "\"cuda\"") &&
      !resolver__text_has(py, cond, "'cuda'"))
    return SKIP_NONE;
  ByteRange r = {ts_node_start_byte(cond), ts_node_end_byte(cond)};
  array_push(&py->skip_conds, r);
  return SKIP_DEAD;
}

/* The guarded `try:` import body that sets flag `cond` (`FA3_ENABLED =
 * True`), or NULL: a relative import there is the project's own extension,
 * which the port builds, not an optional package. */
static const ByteRange *resolver__optional_flag_named(const PyFile *py, const char *name, size_t n);

static const ByteRange *resolver__optional_flag(const PyFile *py, TSNode cond) {
  if (!resolver__is(cond, "identifier") || pyfile_is_npu_check(py, cond)) return NULL;
  char *name = pyfile_node_text(py, cond);
  const ByteRange *src = name ? resolver__optional_flag_named(py, name, strlen(name)) : NULL;
  free(name);
  return src;
}

/* The same by name: name[0, n) assigned (`name = ...`) in a guarded `try:`
 * body of a third-party import. */
static const ByteRange *resolver__optional_flag_named(const PyFile *py, const char *name, size_t n) {
  const ByteRange *src = NULL;
  for (size_t i = 0; n && i < py->guarded.len && !src; i++) {
    const ByteRange *r = &py->guarded.items[i];
    if (memmem(py->text + r->start, r->end - r->start, "from .", 6)) continue;
    for (uint32_t at = r->start; !src && at + n < r->end;) {
      const char *hit = memmem(py->text + at, r->end - at, name, n);
      if (!hit) break;
      uint32_t k = (uint32_t)(hit - py->text) + (uint32_t)n;
      while (k < r->end && py->text[k] == ' ') k++;
      bool word = hit == py->text || !(resolver__word_char(hit[-1]) || hit[-1] == '.');
      if (word && k + 1 < r->end && py->text[k] == '=' && py->text[k + 1] != '=') src = r;
      at = (uint32_t)(hit - py->text) + 1;
    }
  }
  return src;
}

/* The end of an assignment's right-hand side starting at rhs: the line's
 * end or its comment, or, for a parenthesized one (`x = (\n a and b\n)`,
 * as formatters wrap it), its closing parenthesis (then *rhs moves past
 * the opening one). At most 512 bytes; a comment inside reads as empty. */
static const char *resolver__rhs_end(const char **rhs, const char *end) {
  const char *r = *rhs;
  while (r < end && *r == ' ') r++;
  if (r < end && *r == '(') {
    int depth = 0;
    for (const char *q = r; q < end && q - r < 512; q++) {
      if (*q == '(') depth++;
      else if (*q == ')' && --depth == 0) {
        *rhs = r + 1;
        return q;
      }
      else if (*q == '#') return r; /* a comment inside: nothing to read */
    }
    return r;
  }
  const char *eol = memchr(r, '\n', (size_t)(end - r));
  if (!eol) eol = end;
  const char *hash = memchr(r, '#', (size_t)(eol - r));
  return hash ? hash : eol;
}

/* Whether rhs[0, len) holds a `not` other than in `is not None`. */
static bool resolver__bare_not(const char *rhs, size_t len) {
  for (const char *at = rhs; (at = memmem(at, len - (size_t)(at - rhs), "not ", 4)) != NULL; at++) {
    bool is_none = at - rhs >= 3 && memcmp(at - 3, "is ", 3) == 0 && (size_t)(rhs + len - at) >= 8 &&
                   memcmp(at + 4, "None", 4) == 0 && (at + 8 == rhs + len || !resolver__word_char(at[8]));
    if (!is_none) return true;
  }
  return false;
}

/* Whether word w[0, n) of a flag's right-hand side, with `rest` after it,
 * holds only where an optional package loaded: a flag set in a guarded
 * `try:` body, a name a guarded import binds tested `is not None`, or
 * (`depth` permitting) `self.attr` derived from such. */
static bool resolver__derived_flag_at(PyFile *py, const char *lhs, size_t n, int depth);

static bool resolver__flag_word(PyFile *py, const char *w, size_t n, const char *eol, int depth) {
  const char *rest = w + n;
  if (rest < eol && *rest == '.') {
    if (n != 4 || memcmp(w, "self", 4) != 0 || depth >= 2) return false;
    const char *a = rest + 1, *ae = a;
    while (ae < eol && resolver__word_char(*ae)) ae++;
    return ae > a && (ae >= eol || *ae != '.') && resolver__derived_flag_at(py, w, (size_t)(ae - w), depth + 1);
  }
  if (resolver__optional_flag_named(py, w, n)) return true;
  if ((size_t)(eol - rest) < 12 || memcmp(rest, " is not None", 12) != 0) return false;
  const PyBinding *b = pyfile_lookup(py, w, n, (uint32_t)(w - py->text));
  return b && pyfile_in_ranges(py->guarded.items, py->guarded.len, b->def_byte);
}

/* Whether the file assigns `lhs` (a name, or `self.attr`) at the start of a
 * line from a conjunction that holds an optional flag and nothing that could
 * turn it on without the package (`self.use_flash_attn = config.use_flash_attn
 * and has_flash_attn`, `self.using_flash = enabled and flash_attn_func is not
 * None`, `using_flash = self.using_flash and mask is None`): no `or`, other
 * `not`, call or conditional on that line. Derivations nest two deep. */
static bool resolver__derived_flag_at(PyFile *py, const char *lhs, size_t n, int depth) {
  const char *t = py->text, *end = t + py->len;
  for (const char *hit = t; (hit = memmem(hit, (size_t)(end - hit), lhs, n)) != NULL; hit++) {
    const char *b = hit;
    while (b > t && (b[-1] == ' ' || b[-1] == '\t')) b--;
    const char *e = hit + n;
    if ((b > t && b[-1] != '\n') || (e < end && resolver__word_char(*e))) continue;
    while (e < end && *e == ' ') e++;
    if (e + 1 >= end || e[0] != '=' || e[1] == '=') continue;
    const char *rhs = e + 1;
    const char *eol = resolver__rhs_end(&rhs, end);
    size_t len = (size_t)(eol - rhs);
    if (memmem(rhs, len, " or ", 4) || resolver__bare_not(rhs, len) || memmem(rhs, len, " if ", 4) ||
        memmem(rhs, len, "(", 1))
      continue;
    for (const char *w = rhs; w < eol;) {
      if (!resolver__word_char(*w) || (w > rhs && (resolver__word_char(w[-1]) || w[-1] == '.'))) {
        w++;
        continue;
      }
      const char *we = w;
      while (we < eol && resolver__word_char(*we)) we++;
      if (resolver__flag_word(py, w, (size_t)(we - w), eol, depth)) {
        ByteRange src = {(uint32_t)(b - t), (uint32_t)(eol - t)};
        array_push(&py->flag_srcs, src);
        return true;
      }
      w = we;
    }
  }
  return false;
}

static bool resolver__derived_flag(PyFile *py, const char *lhs, size_t n) { return resolver__derived_flag_at(py, lhs, n, 0); }

/* cond without the parentheses and `not`s around it; *neg flips with each `not`. */
static TSNode resolver__strip_not(TSNode cond, bool *neg) {
  for (;;) {
    if (resolver__is(cond, "not_operator") && ts_node_named_child_count(cond) == 1) *neg = !*neg;
    else if (!resolver__is(cond, "parenthesized_expression") || ts_node_named_child_count(cond) != 1) return cond;
    cond = ts_node_named_child(cond, 0);
  }
}

static bool resolver__is_and(TSNode n) {
  if (!resolver__is(n, "boolean_operator")) return false;
  TSNode op = pysym_child(n, PYFIELD_OPERATOR);
  return !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
}

/* Whether a name or `self.attr` is an optional flag or derived from one. */
static bool resolver__flag_leaf(PyFile *py, TSNode cond) {
  bool pos = false;
  if (resolver__is(cond, "identifier") && !pyfile_is_npu_check(py, cond)) {
    char *name = pyfile_node_text(py, cond);
    size_t n = name ? strlen(name) : 0;
    pos = n && (resolver__optional_flag_named(py, name, n) || resolver__derived_flag(py, name, n));
    free(name);
  } else if (resolver__is(cond, "attribute") && !pyfile_is_npu_check(py, cond)) {
    TSNode obj = pysym_child(cond, PYFIELD_OBJECT);
    char *whole = !ts_node_is_null(obj) && resolver__is(obj, "identifier") ? pyfile_node_text(py, cond) : NULL;
    pos = whole && strncmp(whole, "self.", 5) == 0 && resolver__derived_flag(py, whole, strlen(whole));
    free(whole);
  }
  return pos;
}

/* Whether cond holds only where an optional package loaded (+1: `if
 * has_flash_attn:`, `if self.use_flash_attn:` derived from it, `if FLAG and
 * x:`), only where it did not (-1: `not` of those), or says nothing (0). A
 * flag is set in a guarded range: a file without one has none. The operands
 * of an `and` chain are visited with a small stack, left first. */
static int resolver__flag_test(PyFile *py, TSNode cond) {
  if (!py->guarded.len) return 0;
  bool neg = false;
  cond = resolver__strip_not(cond, &neg);
  if (!resolver__is_and(cond)) return resolver__flag_leaf(py, cond) ? (neg ? -1 : 1) : 0;
  if (neg) return 0;
  TSNode stack[32];
  size_t n = 0;
  stack[n++] = cond;
  while (n) {
    bool cn = false;
    TSNode c = resolver__strip_not(stack[--n], &cn);
    if (!resolver__is_and(c)) {
      if (!cn && resolver__flag_leaf(py, c)) return 1;
      continue;
    }
    if (cn) continue; /* `not (A and B)` holds where a package is missing too */
    TSNode l = pysym_child(c, PYFIELD_LEFT), r = pysym_child(c, PYFIELD_RIGHT);
    if (!ts_node_is_null(r) && n < 32) stack[n++] = r;
    if (!ts_node_is_null(l) && n < 32) stack[n++] = l;
  }
  return 0;
}

/* `if has_flash_attn:` (or a flag derived from it) with its fallback in the
 * else or after it: the branch the flag opens runs only where the package
 * loaded; `if not FLAG: ... else:` the same for the else. */
static void resolver__flag_checks(PyFile *py, TSNode stmt, TSNode cond) {
  if (!py->guarded.len || resolver__else_raises(stmt)) return;
  int ft = resolver__flag_test(py, cond);
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  if (ft > 0 && !ts_node_is_null(body)) {
    resolver__optional_branch(py, body);
  }
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) { /* `elif self.using_xform:` the same as an if */
    TSNode c = ts_node_named_child(stmt, i);
    TSNode ec = pysym_of(c) == PYSYM_ELIF_CLAUSE ? pysym_child(c, PYFIELD_CONDITION) : (TSNode){0};
    TSNode eb = ts_node_is_null(ec) ? ec : pysym_child(c, PYFIELD_CONSEQUENCE);
    if (ts_node_is_null(eb) || resolver__flag_test(py, ec) <= 0) continue;
    resolver__optional_branch(py, eb);
  }
  for (uint32_t i = 0; ft < 0 && i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (!resolver__is(c, "else_clause")) continue;
    resolver__optional_branch(py, c);
  }
}

/* `assert FLAG` or `if not FLAG: raise ...` among a function's statements,
 * FLAG set by a guarded third-party import (resolver__optional_flag): what
 * follows it in the function never runs where the package is absent. Asked
 * of each statement of a function body as the walk reaches it (`fn` is the
 * function's frame); the first one counts. */
static void resolver__requires_optional(PyFile *py, TSNode st, Frame *fn) {
  if (fn->requires) return;
  const ByteRange *src = NULL;
  if (resolver__is(st, "assert_statement")) {
    src = resolver__optional_flag(py, ts_node_named_child(st, 0));
  } else if (resolver__is(st, "if_statement") && ts_node_named_child_count(st) == 2) {
    TSNode cond = pysym_child(st, PYFIELD_CONDITION);
    TSNode inner = resolver__is(cond, "not_operator") ? ts_node_named_child(cond, 0) : (TSNode){0};
    src = !ts_node_is_null(inner) && resolver__clause_raises(st) ? resolver__optional_flag(py, inner) : NULL;
  }
  if (!src) return;
  ByteRange at = {ts_node_start_byte(st), ts_node_end_byte(st)}, rest = {ts_node_end_byte(st), ts_node_end_byte(fn->node)};
  ByteRange from = *src;
  array_push(&py->requires_at, at);
  array_push(&py->requires, rest);
  array_push(&py->requires_src, from);
  fn->requires = true;
}

static void resolver__function(PyFile *py, TSNode fn, const Frame *parent) {
  TSNode whole = fn;
  if (resolver__is(parent->node, "decorated_definition")) {
    whole = parent->node;
    uint32_t n = ts_node_named_child_count(whole);
    for (uint32_t i = 0; i < n; i++) {
      TSNode d = ts_node_named_child(whole, i);
      if (resolver__is(d, "decorator") && resolver__is_inference_ctx(py, d)) {
        ByteRange r = {ts_node_start_byte(fn), ts_node_end_byte(fn)};
        array_push(&py->inference, r);
      }
      ResolverSkip k = resolver__is(d, "decorator") ? resolver__skip_kind(py, d) : SKIP_NONE;
      if (k != SKIP_NONE) {
        ByteRange r = {ts_node_start_byte(fn), ts_node_end_byte(fn)};
        if (k == SKIP_DEAD) array_push(&py->dead, r);
        else array_push(&py->guarded, r);
      }
    }
  }
  TSNode name = pysym_child(fn, PYFIELD_NAME);
  TSNode body = pysym_child(fn, PYFIELD_BODY);
  PyFunction f = {0};
  f.name = ts_node_is_null(name) ? xstrdup("") : pyfile_node_text(py, name);
  f.start = ts_node_start_byte(whole);
  f.end = ts_node_end_byte(whole);
  f.body_start = ts_node_is_null(body) ? f.start : ts_node_start_byte(body);
  f.start_row = ts_node_start_point(whole).row;
  f.end_row = ts_node_end_point(whole).row;
  array_push(&py->functions, f);
}

static uint32_t resolver__line_after(const PyFile *py, uint32_t e) {
  while (e < py->len && py->text[e] != '\n' && py->text[e] != '\r') e++;
  if (e < py->len && py->text[e] == '\r') e++;
  if (e < py->len && py->text[e] == '\n' && (e == 0 || py->text[e - 1] != '\n')) e++;
  return e;
}

/* Remembers the first top-level statement importing torch (bindings of
 * this statement were just added). */
static void resolver__torch_import(PyFile *py, TSNode stmt, size_t first_binding) {
  if (py->has_torch_import) return;
  bool torch = false;
  for (size_t i = first_binding; i < py->bindings.len; i++) {
    const char *q = py->bindings.items[i].qualname;
    if (strcmp(q, "torch") == 0 || util_starts_with(q, "torch.")) torch = true;
  }
  if (!torch) return;
  uint32_t s = ts_node_start_byte(stmt);
  while (s > 0 && py->text[s - 1] != '\n' && py->text[s - 1] != '\r') s--;
  py->has_torch_import = true;
  py->torch_import_line_start = s;
  py->torch_import_line_end = resolver__line_after(py, ts_node_end_byte(stmt));
  py->torch_import_plain = pysym_of(stmt) == PYSYM_IMPORT_STATEMENT;
}

static void resolver__top_import_end(PyFile *py, TSNode stmt) {
  py->import_insert_byte = resolver__line_after(py, ts_node_end_byte(stmt));
}

/* Visits one statement-level node; returns whether to walk its children.
 * Expressions are never entered: imports, scopes and guards are statements
 * (guards inside expressions are found by the matcher's walk), and comments
 * are found from the text. */
static bool resolver__visit(PyFile *py, TSNode n, Frame *frames, size_t depth) {
  const Frame *parent = &frames[depth - 1];
  /* a statement of a function's body: frames ... function_definition, block */
  if (depth >= 2 && pysym_of(parent->node) == PYSYM_BLOCK && pysym_of(frames[depth - 2].node) == PYSYM_FUNCTION_DEFINITION)
    resolver__requires_optional(py, n, &frames[depth - 2]);
  switch (pysym_of(n)) {
  case PYSYM_IMPORT_STATEMENT:
  case PYSYM_IMPORT_FROM_STATEMENT: {
    size_t before = py->bindings.len;
    if (pysym_of(n) == PYSYM_IMPORT_STATEMENT) resolver__import(py, parent, n);
    else resolver__import_from(py, parent, n);
    if (pysym_of(parent->node) == PYSYM_MODULE) {
      resolver__top_import_end(py, n);
      resolver__torch_import(py, n, before);
    }
    return false;
  }
  case PYSYM_EXPRESSION_STATEMENT:
    resolver__flag_conditional(py, n);
    return false;
  case PYSYM_OTHER:
    if (resolver__is(n, "return_statement")) resolver__flag_conditional(py, n);
    return false;
  case PYSYM_FUTURE_IMPORT_STATEMENT:
    if (pysym_of(parent->node) == PYSYM_MODULE) resolver__top_import_end(py, n);
    return false;
  case PYSYM_TRY_STATEMENT:
    resolver__try(py, n);
    return true;
  case PYSYM_IF_STATEMENT:
    resolver__if(py, n, parent);
    return true;
  case PYSYM_WITH_STATEMENT:
    resolver__with(py, n);
    return true;
  case PYSYM_FUNCTION_DEFINITION:
    resolver__function(py, n, parent);
    return true;
  case PYSYM_CLASS_DEFINITION: {
    TSNode name = pysym_child(n, PYFIELD_NAME);
    PyClass c = {ts_node_is_null(name) ? xstrdup("") : pyfile_node_text(py, name), ts_node_start_byte(n),
                 ts_node_end_byte(n)};
    array_push(&py->classes, c);
    return true;
  }
  case PYSYM_MODULE: case PYSYM_BLOCK: case PYSYM_DECORATED_DEFINITION: case PYSYM_ELIF_CLAUSE:
  case PYSYM_ELSE_CLAUSE: case PYSYM_EXCEPT_CLAUSE: case PYSYM_FINALLY_CLAUSE: case PYSYM_FOR_STATEMENT:
  case PYSYM_WHILE_STATEMENT: case PYSYM_MATCH_STATEMENT: case PYSYM_CASE_CLAUSE:
    return true;
  default:
    return false;
  }
}

/* Attaches each method to its innermost class, and each function to the
 * function holding it. Functions and classes were found in document order:
 * one sweep with a stack of the classes open at each function (the
 * innermost on top), and one of the functions. */
static void resolver__methods(PyFile *py) {
  Array(const PyClass *) open = {0};
  Array(uint32_t) outer = {0}; /* indexes of the functions open at this one */
  size_t k = 0;
  for (size_t i = 0; i < py->functions.len; i++) {
    PyFunction *f = &py->functions.items[i];
    while (outer.len && !(f->end <= py->functions.items[outer.items[outer.len - 1]].end)) outer.len--;
    f->outer = outer.len ? outer.items[outer.len - 1] + 1 : 0;
    uint32_t self = (uint32_t)i;
    array_push(&outer, self);
    for (; k < py->classes.len && py->classes.items[k].start <= f->start; k++) {
      const PyClass *c = &py->classes.items[k];
      while (open.len && open.items[open.len - 1]->end < c->end) open.len--; /* closed before c */
      array_push(&open, c);
    }
    while (open.len && !(f->end <= open.items[open.len - 1]->end)) open.len--;
    f->class_name = open.len ? xstrdup(open.items[open.len - 1]->name) : NULL;
  }
  array_free(&open);
  array_free(&outer);
}

/* The statement-level walk of one member's tree. */
static void resolver__walk(PyFile *py, TSNode root, size_t len) {
  Array(Frame) frames = {0};
  Frame top = {root, 0, (uint32_t)len, false};
  array_push(&frames, top);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  bool more = ts_tree_cursor_goto_first_child(&cur);
  while (more) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (resolver__visit(py, n, frames.items, frames.len) && ts_tree_cursor_goto_first_child(&cur)) {
      Frame f = frames.items[frames.len - 1];
      f.node = n;
      f.requires = false;
      if (resolver__is(n, "function_definition")) {
        f.scope_start = ts_node_start_byte(n);
        f.scope_end = ts_node_end_byte(n);
      }
      array_push(&frames, f);
      continue;
    }
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur))) {
      if (frames.len <= 1 || !ts_tree_cursor_goto_parent(&cur)) break;
      frames.len--;
    }
  }
  ts_tree_cursor_delete(&cur);
  array_free(&frames);
}

static void pyfile_free_arrays(PyFile *py);

/* ---- the walk of each statement, kept between versions ------------------- */

/* A comment of a statement, relative to the statement's start and row. */
typedef struct {
  uint32_t row, start, end;
} ResolverComment;

/* What the walk of one top-level statement added to the file: the tails of
 * the file's arrays (positions as of `start` and `row`) and the flags it set. */
typedef struct {
  uint64_t hash, env; /* its text; what it reads of the statements before it (resolver__env) */
  uint32_t len, start, row;
  bool reusable;      /* nothing it added points outside it */
  PyFile add;         /* only the arrays and flags are used; import_insert_byte UINT32_MAX: no top-level import */
  Array(ResolverComment) comments; /* its comments (a function of its text alone) */
} ResolverPart;

struct PyFileCache {
  Array(ResolverPart) parts;
};

PyFileCache *pyfile_cache_new(void) { return xcalloc(1, sizeof(PyFileCache)); }

static void resolver__part_free(ResolverPart *p) {
  array_free(&p->comments);
  p->add.text = NULL;
  p->add.n_rows = 0; /* no comments were collected into it */
  pyfile_free_arrays(&p->add);
}

void pyfile_cache_free(PyFileCache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->parts.len; i++) resolver__part_free(&c->parts.items[i]);
  array_free(&c->parts);
  free(c);
}

/* The lengths of the arrays a walk appends to. */
typedef struct {
  size_t bindings, guarded, npu_aware, skip_conds, dead, optin, cuda_gated, optional_only, inference, requires,
      main_blocks, functions, classes, imports, type_checking, unentered, option_gates;
} ResolverMark;

static ResolverMark resolver__mark(const PyFile *py) {
  return (ResolverMark){py->bindings.len, py->guarded.len, py->npu_aware.len, py->skip_conds.len, py->dead.len,
                        py->optin.len, py->cuda_gated.len, py->optional_only.len, py->inference.len, py->requires.len, py->main_blocks.len, py->functions.len,
                        py->classes.len, py->imports.len, py->type_checking.len, py->unentered.len,
                        py->option_gates.len};
}

static ByteRange resolver__shift_range(ByteRange r, int64_t d) {
  return (ByteRange){(uint32_t)((int64_t)r.start + d), (uint32_t)((int64_t)r.end + d)};
}

#define RESOLVER__RANGES(dst, src, from, d)                                                                          \
  for (size_t i_ = (from); i_ < (src).len; i_++) array_push(&(dst), resolver__shift_range((src).items[i_], (d)))

/* Appends to `to` the arrays of `from` past `m`, moved by d bytes and dr
 * rows (a module-level binding's scope is the whole of `to`); `index`: `to`
 * is the file, whose bindings are looked up by name. The names are shared,
 * not copied: a statement's walk gives its new names to its cache part and
 * keeps using them, a kept part lends them to the file (`borrowed`). */
static void resolver__copy(PyFile *to, const PyFile *from, const ResolverMark *m, int64_t d, int64_t dr, bool index) {
  for (size_t i = m->bindings; i < from->bindings.len; i++) {
    PyBinding b = from->bindings.items[i]; /* names shared: the cache's statement owns them */
    if (b.module_scope) {
      b.scope_start = 0;
      b.scope_end = (uint32_t)to->len;
    } else {
      b.scope_start = (uint32_t)((int64_t)b.scope_start + d);
      b.scope_end = (uint32_t)((int64_t)b.scope_end + d);
    }
    b.def_byte = (uint32_t)((int64_t)b.def_byte + d);
    if (b.module_start || b.module_end) {
      b.module_start = (uint32_t)((int64_t)b.module_start + d);
      b.module_end = (uint32_t)((int64_t)b.module_end + d);
    }
    if (b.name_start || b.name_end) {
      b.name_start = (uint32_t)((int64_t)b.name_start + d);
      b.name_end = (uint32_t)((int64_t)b.name_end + d);
    }
    unsigned bit = resolver__name_bit(b.local, strlen(b.local));
    to->name_bloom[bit >> 6] |= 1ull << (bit & 63);
    array_push(&to->bindings, b);
    if (index) resolver__index(to);
  }
  RESOLVER__RANGES(to->guarded, from->guarded, m->guarded, d);
  RESOLVER__RANGES(to->npu_aware, from->npu_aware, m->npu_aware, d);
  RESOLVER__RANGES(to->skip_conds, from->skip_conds, m->skip_conds, d);
  RESOLVER__RANGES(to->dead, from->dead, m->dead, d);
  RESOLVER__RANGES(to->type_checking, from->type_checking, m->type_checking, d);
  RESOLVER__RANGES(to->optin, from->optin, m->optin, d);
  RESOLVER__RANGES(to->cuda_gated, from->cuda_gated, m->cuda_gated, d);
  RESOLVER__RANGES(to->optional_only, from->optional_only, m->optional_only, d);
  RESOLVER__RANGES(to->inference, from->inference, m->inference, d);
  RESOLVER__RANGES(to->unentered, from->unentered, m->unentered, d);
  RESOLVER__RANGES(to->option_gates, from->option_gates, m->option_gates, d);
  RESOLVER__RANGES(to->option_names, from->option_names, m->option_gates, d);
  RESOLVER__RANGES(to->requires, from->requires, m->requires, d);
  RESOLVER__RANGES(to->requires_at, from->requires_at, m->requires, d);
  RESOLVER__RANGES(to->requires_src, from->requires_src, m->requires, d);
  RESOLVER__RANGES(to->main_blocks, from->main_blocks, m->main_blocks, d);
  for (size_t i = m->functions; i < from->functions.len; i++) {
    PyFunction f = from->functions.items[i];
    f.class_name = NULL; /* resolver__methods sets it for the whole file */
    f.start = (uint32_t)((int64_t)f.start + d);
    f.end = (uint32_t)((int64_t)f.end + d);
    f.body_start = (uint32_t)((int64_t)f.body_start + d);
    f.start_row = (uint32_t)((int64_t)f.start_row + dr);
    f.end_row = (uint32_t)((int64_t)f.end_row + dr);
    array_push(&to->functions, f);
  }
  for (size_t i = m->classes; i < from->classes.len; i++) {
    PyClass c = from->classes.items[i];
    PyClass n = {c.name, (uint32_t)((int64_t)c.start + d), (uint32_t)((int64_t)c.end + d)};
    array_push(&to->classes, n);
  }
  for (size_t i = m->imports; i < from->imports.len; i++) {
    PyImport im = from->imports.items[i];
    im.row = (uint32_t)((int64_t)im.row + dr);
    im.start = (uint32_t)((int64_t)im.start + d);
    array_push(&to->imports, im);
  }
}

/* The flags a statement's walk sets, and the first torch import and last
 * top-level import it holds: the file's, saved and cleared before its walk
 * and merged back after it. */
typedef struct {
  bool main_guard, torch_npu, transfer, torch_import, torch_plain;
  uint32_t torch_start, torch_end, import_insert;
} ResolverFlags;

static ResolverFlags resolver__take_flags(PyFile *py) {
  ResolverFlags f = {py->has_main_guard, py->imports_torch_npu, py->transfer_to_npu, py->has_torch_import,
                     py->torch_import_plain, py->torch_import_line_start, py->torch_import_line_end,
                     py->import_insert_byte};
  py->has_main_guard = py->imports_torch_npu = py->transfer_to_npu = py->has_torch_import = false;
  py->import_insert_byte = UINT32_MAX;
  return f;
}

/* Merges a statement's flags (in `part`, moved by d bytes; its
 * import_insert_byte UINT32_MAX when it has no top-level import) into the
 * file's saved ones. */
static void resolver__merge_flags(PyFile *py, const ResolverFlags *saved, const PyFile *part, int64_t d) {
  py->has_main_guard = saved->main_guard || part->has_main_guard;
  py->imports_torch_npu = saved->torch_npu || part->imports_torch_npu;
  py->transfer_to_npu = saved->transfer || part->transfer_to_npu;
  if (saved->torch_import) {
    py->has_torch_import = true;
    py->torch_import_plain = saved->torch_plain;
    py->torch_import_line_start = saved->torch_start;
    py->torch_import_line_end = saved->torch_end;
  } else if (part->has_torch_import) {
    py->has_torch_import = true;
    py->torch_import_plain = part->torch_import_plain;
    py->torch_import_line_start = (uint32_t)((int64_t)part->torch_import_line_start + d);
    py->torch_import_line_end = (uint32_t)((int64_t)part->torch_import_line_end + d);
  } else {
    py->has_torch_import = false;
  }
  py->import_insert_byte = part->import_insert_byte != UINT32_MAX ? (uint32_t)((int64_t)part->import_insert_byte + d)
                                                                  : saved->import_insert;
}

/* What a statement's walk reads of the statements before it, as a digest:
 * the text of their guarded ranges (resolver__optional_flag) and their
 * bindings, with whether each is guarded (resolver__checks_guarded_import);
 * `env` after the guards from `guards` and the bindings from `binds` joined. */
static uint64_t resolver__env(const PyFile *py, uint64_t env, size_t guards, size_t binds) {
  for (size_t i = guards; i < py->guarded.len; i++) {
    const ByteRange *r = &py->guarded.items[i];
    env = util_fnv(env, py->text + r->start, r->end - r->start);
  }
  for (size_t i = binds; i < py->bindings.len; i++) {
    const PyBinding *b = &py->bindings.items[i];
    char guarded = pyfile_in_ranges(py->guarded.items, py->guarded.len, b->def_byte) ? 'g' : 'u';
    env = util_fnv(env, b->local, strlen(b->local) + 1);
    env = util_fnv(env, &guarded, 1);
  }
  return env;
}

/* The kept part of a statement with this text after the same guards, or
 * NULL; `from` moves over the cache's parts, which are in document order. */
static ResolverPart *resolver__kept(PyFileCache *c, size_t *from, uint64_t hash, uint32_t len, uint64_t env) {
  for (size_t i = *from; i < c->parts.len; i++) {
    ResolverPart *p = &c->parts.items[i];
    if (p->hash != hash || p->len != len) continue;
    *from = i + 1;
    return p->env == env && p->reusable ? p : NULL;
  }
  return NULL;
}

/* Walks member m into py, recording what it added into `part` when one is given. */
static void resolver__walk_member(PyFile *py, const Forest *forest, size_t m, ResolverPart *part) {
  ResolverMark mark = resolver__mark(py);
  size_t flag_srcs = py->flag_srcs.len;
  ResolverFlags saved = resolver__take_flags(py);
  resolver__walk(py, forest_root(forest, m), py->len);
  PyFile flags = {0};
  flags.has_main_guard = py->has_main_guard;
  flags.imports_torch_npu = py->imports_torch_npu;
  flags.transfer_to_npu = py->transfer_to_npu;
  flags.has_torch_import = py->has_torch_import;
  flags.torch_import_plain = py->torch_import_plain;
  flags.torch_import_line_start = py->torch_import_line_start;
  flags.torch_import_line_end = py->torch_import_line_end;
  flags.import_insert_byte = py->import_insert_byte;
  resolver__merge_flags(py, &saved, &flags, 0);
  if (!part) return;
  part->add = flags;
  part->add.len = py->len;
  resolver__copy(&part->add, py, &mark, 0, 0, false);
  const ForestMember *mem = &forest->members.items[m];
  part->reusable = true;
  for (size_t i = 0; i < part->add.requires_src.len; i++) {
    const ByteRange *r = &part->add.requires_src.items[i];
    if (r->start < mem->start || r->end > mem->end) part->reusable = false; /* the flag is set in another statement */
  }
  for (size_t i = flag_srcs; i < py->flag_srcs.len; i++) {
    const ByteRange *r = &py->flag_srcs.items[i];
    if (r->start < mem->start || r->end > mem->end) part->reusable = false; /* a flag derived in another statement */
  }
}

/* Adds a kept part to py, moved to where its statement is now. */
static void resolver__replay(PyFile *py, const ResolverPart *p, uint32_t start, uint32_t row) {
  int64_t d = (int64_t)start - p->start, dr = (int64_t)row - p->row;
  ResolverMark none = {0};
  ResolverFlags saved = resolver__take_flags(py);
  resolver__copy(py, &p->add, &none, d, dr, true);
  resolver__merge_flags(py, &saved, &p->add, d);
}

/* The comments of member m: every '#' in it that starts a comment node (a
 * '#' inside a string is rejected by the tree; there are few of either per
 * statement), into py->comments and, when `keep` is given, relative to the
 * member for its next version. */
static void resolver__member_comments(PyFile *py, const ForestMember *mem, ResolverPart *keep) {
  const char *end = py->text + mem->end;
  for (const char *p = memchr(py->text + mem->start, '#', mem->end - mem->start); p;
       p = p + 1 < end ? memchr(p + 1, '#', (size_t)(end - p - 1)) : NULL) {
    uint32_t at = (uint32_t)(p - py->text);
    TSNode c = forest_node_at(py->forest, at, at + 1);
    if (pysym_of(c) != PYSYM_COMMENT || ts_node_start_byte(c) != at) continue;
    uint32_t row = ts_node_start_point(c).row, e = ts_node_end_byte(c);
    if (row < py->n_rows && !py->comments[row]) py->comments[row] = pyfile_node_text(py, c);
    if (keep) {
      ResolverComment rc = {row - mem->row, at - mem->start, e - mem->start};
      array_push(&keep->comments, rc);
    }
    if (e > at + 1 && e <= mem->end) p = py->text + e - 1;
  }
}

/* A kept member's comments, moved to where it is now. */
static void resolver__replay_comments(PyFile *py, const ResolverPart *p, uint32_t start, uint32_t row) {
  for (size_t i = 0; i < p->comments.len; i++) {
    const ResolverComment *c = &p->comments.items[i];
    uint32_t r = row + c->row;
    if (r < py->n_rows && !py->comments[r]) py->comments[r] = xstrndup(py->text + start + c->start, c->end - c->start);
  }
}

PyFile *pyfile_build_cached(const Forest *forest, const char *text, size_t len, PyFileCache *cache, size_t n_lines) {
  PyFile *py = xcalloc(1, sizeof *py);
  py->text = text;
  py->len = len;
  py->forest = forest;
  py->paths = forest ? forest_paths_new(forest) : NULL;
  py->borrowed = cache != NULL;
  size_t rows = n_lines;
  if (!rows) { /* one more than the line breaks */
    rows = 1;
    for (size_t i = 0; i < len; i++) rows += util_line_break(text, len, i);
  }
  py->n_rows = rows;
  py->comments = xcalloc(rows, sizeof *py->comments);
  py->eol = pysyntax_eol(text, len);

  Array(ResolverPart) next = {0};
  if (cache) array_reserve(&next, forest_size(forest)); /* parts are large: no copying as it grows */
  size_t from = 0;
  uint64_t env = UTIL_FNV_SEED;
  for (size_t m = 0; m < forest_size(forest); m++) {
    const ForestMember *mem = &forest->members.items[m];
    size_t guards = py->guarded.len, binds = py->bindings.len;
    if (!cache) {
      resolver__walk_member(py, forest, m, NULL);
      resolver__member_comments(py, mem, NULL);
      continue;
    }
    ResolverPart part;
    memset(&part, 0, sizeof part);
    part.len = mem->end - mem->start;
    part.hash = forest_member_hash(mem, text);
    part.env = env;
    ResolverPart *old = resolver__kept(cache, &from, part.hash, part.len, env);
    if (old) {
      resolver__replay(py, old, mem->start, mem->row);
      resolver__replay_comments(py, old, mem->start, mem->row);
      part = *old; /* moved out of the cache, to where the statement is now */
      memset(old, 0, sizeof *old);
    } else {
      resolver__walk_member(py, forest, m, &part);
      resolver__member_comments(py, mem, &part);
      part.start = mem->start;
      part.row = mem->row;
    }
    env = resolver__env(py, env, guards, binds);
    array_push(&next, part);
  }
  if (cache) { /* this version's parts replace the cache's */
    for (size_t i = 0; i < cache->parts.len; i++) resolver__part_free(&cache->parts.items[i]);
    array_take(&cache->parts, &next);
  }
  pyfile_required_fallbacks(py);
  resolver__methods(py);
  return py;
}

PyFile *pyfile_build(const Forest *forest, const char *text, size_t len) {
  return pyfile_build_cached(forest, text, len, NULL, 0);
}

static void pyfile_free_arrays(PyFile *py) {
  bool own = !py->borrowed; /* else the names are a cache's */
  forest_paths_free(py->paths);
  py->paths = NULL;
  for (size_t i = 0; own && i < py->bindings.len; i++) {
    free(py->bindings.items[i].local);
    free(py->bindings.items[i].qualname);
  }
  array_free(&py->bindings);
  free(py->name_slots);
  array_free(&py->name_next);
  for (size_t i = 0; i < py->functions.len; i++) {
    if (own) free(py->functions.items[i].name);
    free(py->functions.items[i].class_name);
  }
  array_free(&py->functions);
  for (size_t i = 0; own && i < py->classes.len; i++) free(py->classes.items[i].name);
  array_free(&py->classes);
  for (size_t i = 0; own && i < py->imports.len; i++) free(py->imports.items[i].module);
  array_free(&py->imports);
  array_free(&py->guarded);
  array_free(&py->npu_aware);
  array_free(&py->skip_conds);
  array_free(&py->dead);
  array_free(&py->type_checking);
  array_free(&py->optin);
  array_free(&py->cuda_gated);
  array_free(&py->optional_only);
  array_free(&py->flag_srcs);
  array_free(&py->requires);
  array_free(&py->requires_at);
  array_free(&py->requires_src);
  array_free(&py->main_blocks);
  for (size_t i = 0; i < py->required.len; i++) free(py->required.items[i].name);
  array_free(&py->required);
  array_free(&py->inference);
  array_free(&py->unentered);
  array_free(&py->option_gates);
  array_free(&py->option_names);
  for (size_t i = 0; i < py->n_rows; i++) free(py->comments[i]);
  free(py->comments);
}

void pyfile_free(PyFile *py) {
  if (!py) return;
  pyfile_free_arrays(py);
  free(py);
}

const PyBinding *pyfile_lookup(const PyFile *py, const char *name, size_t name_len, uint32_t at) {
  unsigned bit = resolver__name_bit(name, name_len);
  if (!(py->name_bloom[bit >> 6] & (1ull << (bit & 63)))) return NULL; /* not an imported name */
  const PyBinding *best = NULL;
  if (!py->n_name_slots) return NULL;
  for (uint32_t i = py->name_slots[resolver__name_slot(py, name, name_len)].first; i; i = py->name_next.items[i - 1]) {
    const PyBinding *b = &py->bindings.items[i - 1];
    if (at < b->scope_start || at > b->scope_end) continue;
    if (!best) {
      best = b;
      continue;
    }
    uint32_t bw = b->scope_end - b->scope_start, cw = best->scope_end - best->scope_start;
    if (bw < cw) {
      best = b; /* an inner (function) scope shadows the module */
    } else if (bw == cw) {
      /* same scope: the latest import before `at`; before any, the first one */
      bool b_before = b->def_byte <= at, best_before = best->def_byte <= at;
      if ((b_before && (!best_before || b->def_byte > best->def_byte))) best = b;
    }
  }
  return best;
}

char *pyfile_qualname(const PyFile *py, TSNode expr) {
  if (pysym_of(expr) == PYSYM_CALL) expr = pysym_child(expr, PYFIELD_FUNCTION);
  if (ts_node_is_null(expr)) return NULL;
  /* Most chains start at a local name (self, x, model): find the base and
   * resolve it before collecting any attribute. */
  TSNode chain[RESOLVER_MAX_CHAIN];
  size_t depth = 0;
  TSNode n = expr;
  while (pysym_of(n) == PYSYM_ATTRIBUTE) {
    if (depth == RESOLVER_MAX_CHAIN) return NULL; /* no API is that deep: keep the cost linear */
    chain[depth++] = n;
    n = pysym_child(n, PYFIELD_OBJECT);
  }
  if (pysym_of(n) != PYSYM_IDENTIFIER) return NULL;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  const PyBinding *b = pyfile_lookup(py, py->text + s, e - s, s);
  if (!b) return NULL;
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, b->qualname);
  for (size_t i = depth; i-- > 0;) {
    TSNode a = pysym_child(chain[i], PYFIELD_ATTRIBUTE);
    if (ts_node_is_null(a)) {
      sb_free(&sb);
      return NULL;
    }
    uint32_t as = ts_node_start_byte(a), ae = ts_node_end_byte(a);
    sb_putc(&sb, '.');
    sb_append(&sb, py->text + as, ae - as);
  }
  return sb_steal(&sb);
}

bool pyfile_import_row(const PyFile *py, uint32_t row) {
  for (size_t i = 0; i < py->imports.len; i++)
    if (py->imports.items[i].row == row) return true;
  return false;
}

bool pyfile_in_ranges(const ByteRange *r, size_t n, uint32_t at) {
  for (size_t i = 0; i < n; i++)
    if (at >= r[i].start && at < r[i].end) return true;
  return false;
}

char *pyfile_option_at(const PyFile *py, uint32_t at) {
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < py->option_gates.len; i++) {
    const ByteRange *r = &py->option_gates.items[i];
    if (r->start <= at && at < r->end &&
        (best == SIZE_MAX || r->end - r->start < py->option_gates.items[best].end - py->option_gates.items[best].start))
      best = i;
  }
  if (best == SIZE_MAX) return NULL;
  const ByteRange *nm = &py->option_names.items[best];
  return xstrndup(py->text + nm->start, nm->end - nm->start);
}

const PyFunction *pyfile_function_outer(const PyFile *py, const PyFunction *f) {
  return f->outer ? &py->functions.items[f->outer - 1] : NULL;
}

/* The innermost function holding `at`, given the number of functions
 * starting at or before it: functions are in document order (the walk is
 * pre-order), so that is the last of those or a function holding it
 * (definitions nest: any other ends before it starts). */
static const PyFunction *resolver__function_below(const PyFile *py, size_t n, uint32_t at) {
  for (const PyFunction *f = n ? &py->functions.items[n - 1] : NULL; f; f = pyfile_function_outer(py, f))
    if (at < f->end) return f;
  return NULL;
}

const PyFunction *pyfile_function_at(const PyFile *py, uint32_t at) {
  size_t lo = 0, hi = py->functions.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (py->functions.items[mid].start <= at) lo = mid + 1;
    else hi = mid;
  }
  return resolver__function_below(py, lo, at);
}

const PyFunction *pyfile_function_at_sweep(const PyFile *py, size_t *n, uint32_t at) {
  size_t lo = *n <= py->functions.len ? *n : 0;
  if (lo && py->functions.items[lo - 1].start > at) return pyfile_function_at(py, at); /* not ascending */
  while (lo < py->functions.len && py->functions.items[lo].start <= at) lo++;
  *n = lo;
  return resolver__function_below(py, lo, at);
}

TSNode pyfile_next_name(const PyFile *py, const char *name, size_t n, uint32_t *at, uint32_t to) {
  if (to > py->len) to = (uint32_t)py->len;
  while (n && *at < to && to - *at >= n) {
    const char *p = memmem(py->text + *at, to - *at, name, n);
    if (!p) break;
    uint32_t s = (uint32_t)(p - py->text), e = s + (uint32_t)n;
    TSNode id = forest_node_at(py->forest, s, e);
    if (pysym_of(id) == PYSYM_IDENTIFIER && ts_node_start_byte(id) == s && ts_node_end_byte(id) == e) {
      *at = e;
      return id;
    }
    *at = s + 1;
  }
  *at = to;
  return (TSNode){0};
}

const PyClass *pyfile_class_at(const PyFile *py, uint32_t at) {
  const PyClass *best = NULL;
  for (size_t i = 0; i < py->classes.len; i++) {
    const PyClass *c = &py->classes.items[i];
    if (at >= c->start && at < c->end && (!best || c->start >= best->start)) best = c;
  }
  return best;
}
