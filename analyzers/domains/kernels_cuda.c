/* kernels_cuda: the C/C++/CUDA walk (see kernels.h). One cursor walk
 * records kernels and <<<...>>> launches and looks every call, qualified
 * identifier and #include up in the KB_C_* rows; the kernels and launches
 * are emitted after the walk, when every launch site is known.
 *
 * Kernels are __global__ functions, functions defined through a macro
 * whose body declares a __global__ function (`DEFINE_FLASH_FORWARD_KERNEL(
 * flash_fwd_kernel, ...) {...}`; a macro of another file counts when its
 * name is upper case and says KERNEL), and CUTLASS/CuTe kernel classes (a
 * class with MaxThreadsPerBlock and a device operator(), what
 * cutlass::device_kernel<...> launches). A launch through a pointer or
 * alias (`auto kernel = &flash_fwd_kernel<...>; kernel<<<...>>>`) is listed
 * with the kernel it points to. */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/kernels.h"

#include <stdlib.h>

typedef struct {
  TSNode def;   /* function_definition */
  TSNode name;  /* the declarator's name */
  char *id;     /* its text, without scope or template arguments */
  const KernelKind *kind; /* what it does, set when it is emitted */
  bool is_class; /* a CUTLASS/CuTe kernel class, not a __global__ function */
  uint32_t last_row; /* recovered from a parse error (def is then its declarator): its last row */
} CudaKernel;

typedef struct {
  TSNode call;  /* call_expression */
  TSNode cfg;   /* kernel_call_syntax */
  char *id;
} CudaLaunch;

typedef struct {
  char *alias;  /* `kernel` in `auto kernel = &flash_fwd_kernel<...>;` */
  char *target; /* `flash_fwd_kernel` */
} CudaAlias;

typedef struct {
  AnalyzeCtx *ctx;
  Array(CudaKernel) kernels;
  Array(CudaLaunch) launches;
  Array(CudaAlias) aliases;
  StrList kernel_macros; /* macros of this file whose body declares a __global__ function */
  uint32_t device_end;   /* end of the __device__ / __global__ function the walk is in (0: none) */
  const char *host_rules; /* the "host-api-rules" row's codes: not reported in device code */
} CudaWalk;

static bool kernels__is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

static char *kernels__text(const AnalyzeCtx *ctx, TSNode n) {
  return xstrndup(ctx->text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

/* Text without blanks and template arguments, and without a leading "::". */
static char *kernels__name(const AnalyzeCtx *ctx, TSNode n) {
  if (kernels__is(n, "template_function") || kernels__is(n, "template_method")) n = ts_node_child_by_field_name(n, "name", 4);
  char *t = kernels__text(ctx, n), *w = t;
  for (const char *r = t; *r && *r != '<'; r++)
    if (*r != ' ' && *r != '\t' && *r != '\n' && *r != '\r') *w++ = *r;
  *w = '\0';
  if (t[0] == ':' && t[1] == ':') memmove(t, t + 2, strlen(t + 2) + 1);
  return t;
}

/* The last component of a scoped name ("ns::kernel" -> "kernel"). */
static const char *kernels__last(const char *s) {
  const char *c = strrchr(s, ':');
  return c ? c + 1 : s;
}

/* ---- findings from rows ------------------------------------------------------------ */

static Finding *kernels__emit_row(CudaWalk *w, const KbEntry *e, TSNode at, uint32_t end, TSPoint end_pt,
                             const char *subject) {
  const KbRule *rule = kb_rule(e->code);
  if (!rule) return NULL;
  if (ts_node_start_byte(at) < w->device_end && w->host_rules && kb_pattern_match(w->host_rules, e->code)) return NULL;
  FindingList *out = w->ctx->out;
  for (size_t i = out->len; i-- > 0;) { /* one finding per construct and code */
    if (out->items[i].start_byte != ts_node_start_byte(at)) break;
    if (strcmp(out->items[i].rule->code, e->code) == 0) return NULL;
  }
  TSPoint s = ts_node_start_point(at);
  Finding *f = kb_emit(out, rule, e, subject, NULL, ts_node_start_byte(at), end, s.row, s.column, end_pt.row,
                       end_pt.column);
  if (e->fix_kind == KBFIX_RENAME_NAME && e->fix_to) {
    finding_add_edit(f, ts_node_start_byte(at), ts_node_end_byte(at), e->fix_to);
    f->fix = e->fix_safety;
  }
  return f;
}

static const KbEntry *kernels__lookup(const CudaWalk *w, KbMatch m, const char *s) {
  return kb_lookup(m, s, w->ctx->opt->user_entries, w->ctx->opt->n_user_entries);
}

/* A call: a <<<>>> launch is recorded; the callee is looked up as a
 * KB_C_CALL (member calls as ".name"). */
static void kernels__call(CudaWalk *w, TSNode call) {
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  if (ts_node_is_null(fn)) return;
  for (uint32_t i = 0; i < ts_node_named_child_count(call); i++) {
    TSNode c = ts_node_named_child(call, i);
    if (!kernels__is(c, "kernel_call_syntax")) continue;
    CudaLaunch l = {call, c, kernels__name(w->ctx, fn)};
    array_push(&w->launches, l);
    return;
  }
  TSNode at = fn;
  char *key;
  if (kernels__is(fn, "field_expression")) {
    at = ts_node_child_by_field_name(fn, "field", 5);
    char *field = kernels__name(w->ctx, at);
    key = xasprintf(".%s", field);
    free(field);
  } else {
    key = kernels__name(w->ctx, fn);
  }
  const KbEntry *e = kernels__lookup(w, KB_C_CALL, key);
  if (e) {
    char *subject = key[0] == '.' ? xasprintf("%s()", key) : xstrdup(key);
    bool member = key[0] == '.';
    kernels__emit_row(w, e, at, member ? ts_node_end_byte(call) : ts_node_end_byte(at),
                 member ? ts_node_end_point(call) : ts_node_end_point(at), subject);
    free(subject);
  }
  free(key);
}

/* A qualified identifier; true when a row matched (its parts are not looked up again). */
static bool kernels__qualified(CudaWalk *w, TSNode n) {
  char *q = kernels__name(w->ctx, n);
  const KbEntry *e = kernels__lookup(w, KB_C_IDENT, q);
  if (e) kernels__emit_row(w, e, n, ts_node_end_byte(n), ts_node_end_point(n), q);
  free(q);
  return e != NULL;
}

static void kernels__include(CudaWalk *w, TSNode inc) {
  TSNode path = ts_node_child_by_field_name(inc, "path", 4);
  if (ts_node_is_null(path)) return;
  char *p = kernels__text(w->ctx, path);
  size_t n = strlen(p);
  if (n < 2) {
    free(p);
    return;
  }
  char *inner = xstrndup(p + 1, n - 2);
  const KbEntry *e = kernels__lookup(w, KB_C_INCLUDE, inner);
  if (e) kernels__emit_row(w, e, path, ts_node_end_byte(path), ts_node_end_point(path), p);
  free(inner);
  free(p);
}

/* ---- kernels ------------------------------------------------------------------------- */

static bool kernels__has_child(TSNode def, const char *type) {
  uint32_t n = ts_node_child_count(def);
  for (uint32_t i = 0; i < n; i++)
    if (kernels__is(ts_node_child(def, i), type)) return true;
  return false;
}

/* `__global__ LAUNCH_BOUNDS(n) void k(...) {...}`: the macro call makes the
 * parser end a declaration `__global__ LAUNCH_BOUNDS(n)` (its ";" missing)
 * right before the definition, alone or as a template's declaration. */
static bool kernels__split_global(const CudaWalk *w, TSNode def) {
  TSNode prev = forest_prev_named_sibling(w->ctx->forest, def);
  if (kernels__is(prev, "template_declaration") && ts_node_named_child_count(prev) > 0)
    prev = ts_node_named_child(prev, ts_node_named_child_count(prev) - 1);
  return kernels__is(prev, "declaration") && ts_node_has_error(prev) && kernels__has_child(prev, "__global__");
}

static bool kernels__is_global(const CudaWalk *w, TSNode def) {
  return kernels__has_child(def, "__global__") || kernels__split_global(w, def);
}

/* Whether the text of node n holds `word`. */
static bool kernels__node_has(const AnalyzeCtx *ctx, TSNode n, const char *word) {
  uint32_t s = ts_node_start_byte(n);
  return memmem(ctx->text + s, ts_node_end_byte(n) - s, word, strlen(word)) != NULL;
}

/* `#define NAME(kernelName, ...) ... __global__ void kernelName(...)`. */
static void kernels__macro(CudaWalk *w, TSNode def) {
  TSNode name = ts_node_child_by_field_name(def, "name", 4);
  TSNode value = ts_node_child_by_field_name(def, "value", 5);
  if (ts_node_is_null(name) || ts_node_is_null(value)) return;
  if (kernels__node_has(w->ctx, value, "__global__")) array_push(&w->kernel_macros, kernels__text(w->ctx, name));
}

/* Whether `id` names a kernel-defining macro: one of this file's, or an
 * upper-case name that says KERNEL (the macro lives in another header). */
static bool kernels__is_kernel_macro(const CudaWalk *w, const char *id) {
  for (size_t i = 0; i < w->kernel_macros.len; i++)
    if (strcmp(w->kernel_macros.items[i], id) == 0) return true;
  bool upper = *id != '\0';
  for (const char *c = id; *c && upper; c++) upper = (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
  return upper && strstr(id, "KERNEL") != NULL;
}

/* The kernel a macro use defines: its first argument's identifier. */
static TSNode kernels__macro_kernel_name(const CudaWalk *w, TSNode fdecl) {
  TSNode null = {0};
  TSNode callee = ts_node_child_by_field_name(fdecl, "declarator", 10);
  TSNode params = ts_node_child_by_field_name(fdecl, "parameters", 10);
  if (ts_node_is_null(callee) || ts_node_is_null(params) || !kernels__is(callee, "identifier")) return null;
  char *id = kernels__text(w->ctx, callee);
  bool macro = kernels__is_kernel_macro(w, id);
  free(id);
  if (!macro || ts_node_named_child_count(params) == 0) return null;
  TSNode first = ts_node_named_child(params, 0);
  /* `flash_fwd_kernel` parses as a parameter whose type is that name */
  for (int depth = 0; depth < 4 && !ts_node_is_null(first) && !kernels__is(first, "identifier") &&
                      !kernels__is(first, "type_identifier");
       depth++)
    first = ts_node_named_child_count(first) ? ts_node_named_child(first, 0) : null;
  return first;
}

/* A CUTLASS/CuTe kernel class: MaxThreadsPerBlock and a device operator()
 * in its body. */
static void kernels__class(CudaWalk *w, TSNode cls) {
  TSNode name = ts_node_child_by_field_name(cls, "name", 4);
  TSNode body = ts_node_child_by_field_name(cls, "body", 4);
  if (ts_node_is_null(name) || ts_node_is_null(body)) return;
  if (!kernels__node_has(w->ctx, body, "MaxThreadsPerBlock") || !kernels__node_has(w->ctx, body, "operator()") ||
      !(kernels__node_has(w->ctx, body, "CUTLASS_DEVICE") || kernels__node_has(w->ctx, body, "__device__")))
    return;
  char *full = kernels__name(w->ctx, name);
  CudaKernel k = {cls, name, xstrdup(kernels__last(full)), NULL, true, 0};
  free(full);
  array_push(&w->kernels, k);
}

/* `auto kernel = &flash_fwd_kernel<...>;` (or without the `&`). */
static void kernels__alias(CudaWalk *w, TSNode init) {
  TSNode decl = ts_node_child_by_field_name(init, "declarator", 10);
  TSNode value = ts_node_child_by_field_name(init, "value", 5);
  if (ts_node_is_null(decl) || ts_node_is_null(value) || !kernels__is(decl, "identifier")) return;
  if (kernels__is(value, "pointer_expression")) value = ts_node_child_by_field_name(value, "argument", 8);
  if (ts_node_is_null(value) || !(kernels__is(value, "template_function") || kernels__is(value, "identifier") ||
                                  kernels__is(value, "qualified_identifier")))
    return;
  CudaAlias a = {kernels__text(w->ctx, decl), NULL};
  char *t = kernels__name(w->ctx, value);
  a.target = xstrdup(kernels__last(t));
  free(t);
  array_push(&w->aliases, a);
}

/* Whether def sits in a function's body: a macro use there with a block
 * (`CUDA_1D_KERNEL_LOOP(index, n) { ... }`, the grid-stride loop) parses as
 * a definition but defines nothing; kernels live at namespace scope. */
static bool kernels__in_body(TSNode def) {
  for (TSNode p = ts_node_parent(def); !ts_node_is_null(p); p = ts_node_parent(p))
    if (kernels__is(p, "compound_statement")) return true;
  return false;
}

static void kernels__function(CudaWalk *w, TSNode def) {
  TSNode d = ts_node_child_by_field_name(def, "declarator", 10);
  for (int depth = 0; depth < 8 && !ts_node_is_null(d) && !kernels__is(d, "function_declarator"); depth++)
    d = ts_node_child_by_field_name(d, "declarator", 10);
  if (ts_node_is_null(d)) return; /* e.g. `__global__ x {}` while typing */
  TSNode name;
  bool global = kernels__is_global(w, def);
  if (global) name = ts_node_child_by_field_name(d, "declarator", 10);
  else name = kernels__macro_kernel_name(w, d);
  if (ts_node_is_null(name) || (!global && kernels__in_body(def))) return;
  char *full = kernels__name(w->ctx, name);
  CudaKernel k = {def, name, xstrdup(kernels__last(full)), NULL, false, 0};
  free(full);
  array_push(&w->kernels, k);
}

/* A `__global__` function the parser could not make a definition of (a
 * condition `a < b && c < d` read as template arguments turns the file into
 * one ERROR node whose children are the definition's pieces): its
 * declarator after the `__global__` token, its rows up to the next one. */
static void kernels__recover(CudaWalk *w, TSNode err) {
  uint32_t n = ts_node_child_count(err);
  for (uint32_t i = 0; i < n; i++) {
    if (!kernels__is(ts_node_child(err, i), "__global__")) continue;
    uint32_t d = i + 1;
    while (d < n && d < i + 5 && !kernels__is(ts_node_child(err, d), "function_declarator")) d++;
    if (d >= n || d >= i + 5) continue;
    TSNode decl = ts_node_child(err, d);
    TSNode name = ts_node_child_by_field_name(decl, "declarator", 10);
    if (ts_node_is_null(name) || !kernels__is(name, "identifier")) continue;
    uint32_t last = ts_node_end_point(err).row;
    for (uint32_t k = d + 1; k < n; k++)
      if (kernels__is(ts_node_child(err, k), "__global__")) {
        last = ts_node_start_point(ts_node_child(err, k)).row;
        break;
      }
    CudaKernel kern = {decl, name, kernels__text(w->ctx, name), NULL, false, last};
    array_push(&w->kernels, kern);
  }
}

static void kernels__visit(CudaWalk *w, TSTreeCursor *cur, bool *skip) {
  TSNode n = ts_tree_cursor_current_node(cur);
  const char *t = ts_node_type(n);
  *skip = strcmp(t, "comment") == 0;
  if (strcmp(t, "function_definition") == 0) {
    if ((kernels__is_global(w, n) || kernels__has_child(n, "__device__")) && ts_node_end_byte(n) > w->device_end)
      w->device_end = ts_node_end_byte(n);
    kernels__function(w, n);
  } else if (strcmp(t, "ERROR") == 0) kernels__recover(w, n);
  else if (strcmp(t, "preproc_function_def") == 0) kernels__macro(w, n);
  else if (strcmp(t, "struct_specifier") == 0 || strcmp(t, "class_specifier") == 0) kernels__class(w, n);
  else if (strcmp(t, "init_declarator") == 0) kernels__alias(w, n);
  else if (strcmp(t, "call_expression") == 0) kernels__call(w, n);
  else if (strcmp(t, "qualified_identifier") == 0) *skip = kernels__qualified(w, n);
  else if (strcmp(t, "preproc_include") == 0) kernels__include(w, n);
}

/* "line 40 <<<grid, block, 0, stream>>>" for each launch of `id`. */
static void kernels__launch_list(const CudaWalk *w, const char *id, StrBuf *sb) {
  size_t count = 0;
  for (size_t i = 0; i < w->launches.len; i++) {
    const CudaLaunch *l = &w->launches.items[i];
    const char *launched = kernels__last(l->id);
    for (size_t a = 0; a < w->aliases.len; a++)
      if (strcmp(w->aliases.items[a].alias, launched) == 0) launched = w->aliases.items[a].target;
    if (strcmp(launched, id) != 0) continue;
    char *cfg = kernels_squash(w->ctx->text + ts_node_start_byte(l->cfg),
                               ts_node_end_byte(l->cfg) - ts_node_start_byte(l->cfg), 80);
    sb_printf(sb, "%s line %u %s", count++ ? "," : "", ts_node_start_point(l->call).row + 1, cfg);
    free(cfg);
  }
  if (!count) sb_puts(sb, " none in this file");
}

static void kernels__emit_kernel(CudaWalk *w, CudaKernel *k) {
  TSNode body = ts_node_child_by_field_name(k->def, "body", 4);
  TSNode decl = ts_node_child_by_field_name(k->def, "declarator", 10);
  StrList callees = {0};
  if (!ts_node_is_null(body)) kernels_callees(w->ctx->text, body, &callees);
  bool by_name = false;
  const KernelKind *kind = kernels_classify(k->id, &callees, &by_name);
  k->kind = kind;
  bool recovered = kernels__is(k->def, "function_declarator");
  uint32_t last = recovered ? k->last_row : ts_node_end_point(k->def).row;
  uint32_t lines = last - ts_node_start_point(k->def).row + 1;
  char *repl = kernels_replacement(kind, lines, NULL);
  TSPoint s = ts_node_start_point(k->name), e = ts_node_end_point(k->name);
  Finding *f = kb_emit(w->ctx->out, kb_rule("ASC401"), NULL, k->id, repl, ts_node_start_byte(k->name),
                       ts_node_end_byte(k->name), s.row, s.column, e.row, e.column);
  f->weight = lines;
  f->confidence = kind ? kind->confidence : CONF_HIGH;
  if (recovered) decl = k->def;
  if (ts_node_is_null(decl)) decl = k->name; /* a kernel class: its name */
  char *sig = kernels_squash(w->ctx->text + ts_node_start_byte(decl), ts_node_end_byte(decl) - ts_node_start_byte(decl), 200);
  char *what = kernels_describe(kind, by_name, lines, NULL);
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "kernel: %s %s; lines: %u; launches:", k->is_class ? "CUTLASS kernel class" : "__global__", sig, lines);
  kernels__launch_list(w, k->id, &sb);
  sb_printf(&sb, "; %s", what);
  f->detail = sb_steal(&sb);
  free(what);
  free(sig);
  free(repl);
  strlist_free(&callees);
}

static const CudaKernel *kernels__kernel_named(const CudaWalk *w, const char *id) {
  for (size_t i = 0; i < w->kernels.len; i++)
    if (strcmp(w->kernels.items[i].id, id) == 0) return &w->kernels.items[i];
  return NULL;
}

static void kernels__emit_launch(CudaWalk *w, const CudaLaunch *l) {
  const char *id = kernels__last(l->id);
  char *cfg = kernels_squash(w->ctx->text + ts_node_start_byte(l->cfg), ts_node_end_byte(l->cfg) - ts_node_start_byte(l->cfg), 80);
  char *subject = xasprintf("%s%s", l->id, cfg);
  const CudaKernel *k = kernels__kernel_named(w, id);
  char *repl;
  if (k) {
    /* the kernel's kind comes from keywords: no op is proposed for its launch */
    repl = xasprintf("launch the AscendC port of %s on an NPU stream", id);
  } else {
    repl = xasprintf("replace together with the kernel it launches (`%s` is not defined in this file)", id);
  }
  TSPoint s = ts_node_start_point(l->call), e = ts_node_end_point(l->cfg);
  Finding *f = kb_emit(w->ctx->out, kb_rule("ASC402"), NULL, subject, repl, ts_node_start_byte(l->call),
                       ts_node_end_byte(l->cfg), s.row, s.column, e.row, e.column);
  f->detail = xasprintf("launch of %s with %s", id, cfg);
  free(repl);
  free(subject);
  free(cfg);
}

void kernels_cuda(AnalyzeCtx *ctx) {
  const KbEntry *host = kb_lookup(KB_DETECTOR, "host-api-rules", NULL, 0);
  CudaWalk w = {ctx, {0}, {0}, {0}, {0}, 0, host ? host->arg : NULL};
  TSTreeCursor cur = ts_tree_cursor_new(forest_root(ctx->forest, 0));
  bool more = true;
  while (more) {
    bool skip = false;
    kernels__visit(&w, &cur, &skip);
    if (!skip && ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
  }
  ts_tree_cursor_delete(&cur);
  for (size_t i = 0; i < w.kernels.len; i++) kernels__emit_kernel(&w, &w.kernels.items[i]);
  for (size_t i = 0; i < w.launches.len; i++) kernels__emit_launch(&w, &w.launches.items[i]);
  for (size_t i = 0; i < w.kernels.len; i++) free(w.kernels.items[i].id);
  for (size_t i = 0; i < w.launches.len; i++) free(w.launches.items[i].id);
  for (size_t i = 0; i < w.aliases.len; i++) {
    free(w.aliases.items[i].alias);
    free(w.aliases.items[i].target);
  }
  array_free(&w.kernels);
  array_free(&w.launches);
  array_free(&w.aliases);
  strlist_free(&w.kernel_macros);
}
