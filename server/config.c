/* config: see config.h.
 *
 * The TOML is parsed with tree-sitter and flattened into (key path, value
 * node) pairs: `[tool.ascend-lsp.target] chip = "A3"`, `target.chip = "A3"`
 * and `target = {chip = "A3"}` all become tool/ascend-lsp/target/chip. Array
 * tables get an index segment ("#0", "#1"). Each flattened key is then
 * handled by one small function per top-level key. Inline tables are
 * expanded with an explicit stack, never by recursion. */
#include "server/config.h"
#include "analyzers/engine/nesting.h"
#include "analyzers/engine/arena.h"
#include "analyzers/engine/toml.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

TSLanguage *tree_sitter_toml(void);

#define CONFIG_MAX_FILE ((size_t)1 << 20)

unsigned config_chip(const char *name) {
  if (!name) return 0;
  if (strcasecmp(name, "910B") == 0 || strcasecmp(name, "A2") == 0) return CHIP_910B;
  if (strcasecmp(name, "910A") == 0 || strcasecmp(name, "910") == 0) return CHIP_910A;
  if (strcasecmp(name, "310P") == 0) return CHIP_310P;
  if (strcasecmp(name, "A3") == 0 || strcasecmp(name, "910C") == 0) return CHIP_A3;
  if (strcasecmp(name, "950") == 0 || strcasecmp(name, "950DT") == 0 || strcasecmp(name, "950PR") == 0) return CHIP_950;
  return 0;
}

char *config_support_notice(const char *torch_npu) {
  bool fallback;
  int v = kb_support_version(torch_npu, &fallback);
  size_t n;
  const KbSupportVersion *vs = kb_support_versions(&n);
  if (v < 0) return xasprintf("torch_npu '%s' is not a version; operator coverage is off", torch_npu ? torch_npu : "");
  if (!fallback) return NULL;
  const char *which = kb_support_compare(vs[v].version, torch_npu) > 0 ? "the oldest one"
                      : (size_t)v + 1 == n                            ? "the newest one"
                                                                      : "the nearest lower one";
  return xasprintf("torch_npu %s has no support list; operator coverage uses the torch_npu %s list (%s)", torch_npu,
                   vs[v].version, which);
}

bool config_code_valid(const char *s) {
  if (!s || strncmp(s, "ASC", 3) != 0) return false;
  size_t n = 0;
  for (const char *p = s + 3; *p; p++, n++)
    if (*p < '0' || *p > '9') return false;
  return n <= 3;
}

bool config_names_unused_noqa(const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (list[i] && strlen(list[i]) >= 4 && util_starts_with("ASC001", list[i])) return true;
  return false;
}

/* ---- the Config's owned storage --------------------------------------------- */

/* Everything a Config holds lives in its arena: config_free releases it at
 * once. Heap strings from the TOML reader are moved in. */
static char *config__keep(Config *c, char *s) { return arena_take(&c->arena, s); }

static void config__push(Config *c, char ***list, size_t *n, char *s) {
  *list = arena_grow(&c->arena, *list, *n * sizeof **list, (*n + 1) * sizeof **list);
  (*list)[(*n)++] = config__keep(c, s);
}

void config_free(Config *c) {
  arena_free(&c->arena);
  memset(c, 0, sizeof *c);
}

/* ---- parser state -------------------------------------------------------------- */

/* One [[rules]] table as written; strings are kept in Config.strings. */
typedef struct {
  uint32_t line;
  const char *code, *pattern, *kind, *replacement, *severity, *message, *message_zh, *fix, *fix_safety,
      *confidence, *name;
  int needs_torch_npu; /* -1 unset */
} ConfigRuleDraft;

typedef struct {
  Config *c;
  const char *text;
  size_t len;
  bool pyproject;
  bool found;          /* a key of ours was seen */
  StrBuf err;
  Array(ConfigRuleDraft) rules;
} ConfigParser;

/* A flattened key: path segments (heap strings) and the line of the pair. */
typedef struct {
  StrList segs;
  uint32_t line;
} ConfigKey;

static void config__error(ConfigParser *p, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void config__error(ConfigParser *p, uint32_t line, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (p->err.len) sb_putc(&p->err, '\n');
  if (line) sb_printf(&p->err, "%u: %s", line, msg);
  else sb_puts(&p->err, msg);
}

static bool config__is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static uint32_t config__line(TSNode n) {
  return ts_node_start_point(n).row + 1;
}

/* ---- TOML values --------------------------------------------------------------- */

static char *config__string(const ConfigParser *p, TSNode n) { return toml_string(p->text, n); }

/* The strings of a value that must be a string or an array of strings.
 * Returns false (after reporting) when it is neither. */
static bool config__strings(ConfigParser *p, TSNode v, const char *key, StrList *out) {
  if (config__is(v, "string")) {
    array_push(out, config__string(p, v));
    return true;
  }
  if (!config__is(v, "array")) {
    config__error(p, config__line(v), "%s: expected a string or an array of strings", key);
    return false;
  }
  uint32_t n = ts_node_named_child_count(v);
  for (uint32_t i = 0; i < n; i++) {
    TSNode e = ts_node_named_child(v, i);
    if (config__is(e, "comment")) continue;
    if (!config__is(e, "string")) {
      config__error(p, config__line(e), "%s: expected strings in the array", key);
      continue;
    }
    array_push(out, config__string(p, e));
  }
  return true;
}

/* A value that must be a single string; NULL (after reporting) otherwise. */
static char *config__one_string(ConfigParser *p, TSNode v, const char *key) {
  if (config__is(v, "string")) return config__string(p, v);
  config__error(p, config__line(v), "%s: expected a string", key);
  return NULL;
}

/* ---- keys ------------------------------------------------------------------------ */

/* Code lists (select, ignore, ...): every item must be a code or prefix. */
static void config__codes(ConfigParser *p, TSNode v, const char *key, char ***list, size_t *n) {
  StrList items = {0};
  config__strings(p, v, key, &items);
  for (size_t i = 0; i < items.len; i++) {
    if (config_code_valid(items.items[i])) {
      config__push(p->c, list, n, items.items[i]);
      items.items[i] = NULL;
    } else {
      config__error(p, config__line(v), "%s: '%s' is not a rule code or prefix (like ASC201 or ASC2)", key,
                    items.items[i]);
    }
  }
  strlist_free(&items);
}

static void config__per_file_ignore(ConfigParser *p, const char *glob, TSNode v) {
  Config *c = p->c;
  ConfigFileIgnore fi = {arena_strdup(&c->arena, glob), NULL, 0};
  config__codes(p, v, "per-file-ignores", &fi.codes, &fi.n_codes);
  size_t n = c->n_per_file_ignores;
  c->per_file_ignores = arena_grow(&c->arena, c->per_file_ignores, n * sizeof fi, (n + 1) * sizeof fi);
  c->per_file_ignores[c->n_per_file_ignores++] = fi;
}

static void config__target(ConfigParser *p, const char *key, TSNode v) {
  Config *c = p->c;
  if (strcmp(key, "chip") == 0) {
    char *s = config__one_string(p, v, "target.chip");
    if (s && config_chip(s)) {
      c->chip = config_chip(s);
      c->chip_set = true;
    } else if (s) {
      config__error(p, config__line(v), "target.chip: unknown chip '%s' (910B, A3, 950, 910A, 310P)", s);
    }
    free(s);
  } else if (strcmp(key, "torch-npu") == 0 || strcmp(key, "torch_npu") == 0) {
    char *s = config__one_string(p, v, "target.torch-npu");
    if (s) c->torch_npu = config__keep(c, s);
  } else if (strcmp(key, "cann") == 0) {
    char *s = config__one_string(p, v, "target.cann");
    if (s) c->cann = config__keep(c, s);
  } else if (strcmp(key, "mindiesd") == 0) {
    if (config__is(v, "boolean")) {
      c->mindiesd = p->text[ts_node_start_byte(v)] == 't';
      c->mindiesd_set = true;
    } else {
      config__error(p, config__line(v), "target.mindiesd: expected true or false");
    }
  } else {
    config__error(p, config__line(v), "target: unknown key '%s' (chip, torch-npu, cann, mindiesd)", key);
  }
}

static void config__phase(ConfigParser *p, const char *name, TSNode v) {
  StrList globs = {0};
  config__strings(p, v, "phases", &globs);
  for (size_t i = 0; i < globs.len; i++)
    config__push(p->c, &p->c->phases, &p->c->n_phases, xasprintf("%s=%s", name, globs.items[i]));
  strlist_free(&globs);
}

static ConfigRuleDraft *config__draft(ConfigParser *p, const char *index, uint32_t line) {
  size_t i = (size_t)strtoul(index + 1, NULL, 10);
  while (p->rules.len <= i) {
    ConfigRuleDraft d;
    memset(&d, 0, sizeof d);
    d.needs_torch_npu = -1;
    d.line = line;
    array_push(&p->rules, d);
  }
  return &p->rules.items[i];
}

static void config__rule_key(ConfigParser *p, const char *index, const char *key, TSNode v) {
  static const char *const names[] = {"code", "pattern", "kind", "replacement", "severity", "message",
                                      "message-zh", "fix", "fix-safety", "confidence", "name"};
  ConfigRuleDraft *d = config__draft(p, index, config__line(v));
  const char **slots[] = {&d->code, &d->pattern, &d->kind, &d->replacement, &d->severity, &d->message,
                          &d->message_zh, &d->fix, &d->fix_safety, &d->confidence, &d->name};
  if (strcmp(key, "needs-torch-npu") == 0) {
    if (config__is(v, "boolean")) d->needs_torch_npu = p->text[ts_node_start_byte(v)] == 't';
    else config__error(p, config__line(v), "rules.needs-torch-npu: expected true or false");
    return;
  }
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(key, names[i]) != 0) continue;
    char what[64];
    snprintf(what, sizeof what, "rules.%s", key);
    char *s = config__one_string(p, v, what);
    if (s) *slots[i] = config__keep(p->c, s);
    return;
  }
  config__error(p, config__line(v),
                "rules: unknown key '%s' (code, pattern, kind, replacement, severity, message, message-zh, fix, "
                "fix-safety, confidence, needs-torch-npu, name)",
                key);
}

/* cache-dir: relative to the configuration file's folder, like every path
 * the file names. */
static void config__cache_dir(ConfigParser *p, TSNode v) {
  char *s = config__one_string(p, v, "cache-dir");
  if (s) p->c->cache_dir = config__keep(p->c, s); /* made absolute once the file's folder is known (config__try) */
}

/* One flattened key of ours (the tool.ascend-lsp prefix already removed). */
static void config__key(ConfigParser *p, char **k, size_t n, TSNode v) {
  Config *c = p->c;
  const char *top = k[0];
  if (n == 1 && strcmp(top, "select") == 0) config__codes(p, v, top, &c->select, &c->n_select);
  else if (n == 1 && strcmp(top, "extend-select") == 0) config__codes(p, v, top, &c->extend_select, &c->n_extend_select);
  else if (n == 1 && strcmp(top, "ignore") == 0) config__codes(p, v, top, &c->ignore, &c->n_ignore);
  else if (n == 1 && strcmp(top, "exclude") == 0) {
    StrList l = {0};
    config__strings(p, v, top, &l);
    for (size_t i = 0; i < l.len; i++) config__push(c, &c->exclude, &c->n_exclude, l.items[i]);
    array_free(&l);
  } else if (n == 2 && strcmp(top, "per-file-ignores") == 0) config__per_file_ignore(p, k[1], v);
  else if (n == 2 && strcmp(top, "target") == 0) config__target(p, k[1], v);
  else if (n == 2 && strcmp(top, "phases") == 0) config__phase(p, k[1], v);
  else if (n == 1 && strcmp(top, "cache-dir") == 0) config__cache_dir(p, v);
  else if (n == 3 && strcmp(top, "rules") == 0 && k[1][0] == '#') config__rule_key(p, k[1], k[2], v);
  else {
    StrBuf name;
    sb_init(&name);
    for (size_t i = 0; i < n; i++) sb_printf(&name, "%s%s", i ? "." : "", k[i]);
    config__error(p, config__line(v), "unknown key '%s'", name.data);
    sb_free(&name);
  }
}

/* Routes a flattened key: ours when under tool.ascend-lsp (or anywhere in
 * .ascend-lsp.toml); other tools' keys in pyproject.toml are not ours. */
static void config__route(ConfigParser *p, const StrList *segs, TSNode v) {
  size_t skip = 0;
  if (segs->len >= 2 && strcmp(segs->items[0], "tool") == 0 && strcmp(segs->items[1], "ascend-lsp") == 0) skip = 2;
  else if (p->pyproject) return;
  p->found = true;
  if (segs->len <= skip) return;
  config__key(p, segs->items + skip, segs->len - skip, v);
}

/* ---- the document walk ----------------------------------------------------------- */

/* Every value is routed; tables are opened (their pairs are the keys). */
static bool config__visit(void *data, const TomlItem *it) {
  ConfigParser *p = data;
  const StrList *path = it->path;
  if (ts_node_is_null(it->value)) {
    if (path->len >= 2 && strcmp(path->items[0], "tool") == 0 && strcmp(path->items[1], "ascend-lsp") == 0)
      p->found = true;
    return false;
  }
  if (toml_is_table(it->value)) return true;
  config__route(p, path, it->value);
  return false;
}

/* The first syntax error's line, or 0. */
static uint32_t config__syntax_error(TSNode root) {
  if (!ts_node_has_error(root)) return 0;
  TSTreeCursor cur = ts_tree_cursor_new(root);
  uint32_t line = config__line(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (config__is(n, "ERROR") || ts_node_is_missing(n)) {
      line = config__line(n);
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cur)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cur);
  return line;
}

/* ---- user rules -------------------------------------------------------------------- */

static bool config__severity(const char *s, Severity *out) {
  static const struct {
    const char *name;
    Severity sev;
  } names[] = {{"error", SEV_ERROR}, {"warning", SEV_WARNING}, {"info", SEV_INFO}, {"information", SEV_INFO},
               {"hint", SEV_HINT}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(s, names[i].name) == 0) {
      *out = names[i].sev;
      return true;
    }
  return false;
}

static bool config__kind(const char *s, KbMatch *out) {
  static const struct {
    const char *name;
    KbMatch match;
  } names[] = {{"qualname", KB_QUALNAME}, {"method", KB_METHOD}, {"import", KB_IMPORT}, {"env", KB_ENV},
               {"package", KB_PACKAGE}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i].name) == 0) {
      *out = names[i].match;
      return true;
    }
  return false;
}

static bool config__confidence(const char *s, Confidence *out) {
  if (strcasecmp(s, "high") == 0) *out = CONF_HIGH;
  else if (strcasecmp(s, "medium") == 0) *out = CONF_MEDIUM;
  else if (strcasecmp(s, "low") == 0) *out = CONF_LOW;
  else return false;
  return true;
}

static bool config__user_code(const char *s) {
  return s && strlen(s) == 6 && strncmp(s, "ASC9", 4) == 0 && s[4] >= '0' && s[4] <= '9' && s[5] >= '0' &&
         s[5] <= '9';
}

/* The fix a rule's `fix` key asks for. Returns false (after reporting)
 * when the rule cannot have one; the rule is kept without a fix. */
static bool config__rule_fix(ConfigParser *p, const ConfigRuleDraft *d, KbEntry *e) {
  if (!d->fix) return true;
  if (strpbrk(d->pattern, "*?|[")) {
    config__error(p, d->line, "rules (%s): `fix` needs a pattern without wildcards; kept without a fix", d->code);
    return false;
  }
  if (e->match == KB_QUALNAME) e->fix_kind = KBFIX_RENAME_QUAL;
  else if (e->match == KB_METHOD) e->fix_kind = KBFIX_RENAME_NAME;
  else if (e->match == KB_ENV) e->fix_kind = KBFIX_STRING_SUB;
  else {
    config__error(p, d->line, "rules (%s): `fix` works with kind qualname, method or env; kept without a fix",
                  d->code);
    return false;
  }
  e->fix_from = d->pattern;
  e->fix_to = d->fix;
  e->fix_safety = FIX_SAFE;
  if (d->fix_safety && strcmp(d->fix_safety, "unsafe") == 0) e->fix_safety = FIX_UNSAFE;
  else if (d->fix_safety && strcmp(d->fix_safety, "safe") != 0)
    config__error(p, d->line, "rules (%s): fix-safety must be \"safe\" or \"unsafe\"", d->code);
  e->needs_torch_npu = d->needs_torch_npu >= 0 ? d->needs_torch_npu == 1
                                                : util_starts_with(d->fix, "torch.npu") || util_starts_with(d->fix, "torch_npu");
  return true;
}

/* Validates a draft into a mapping row. Returns false (after reporting)
 * when the rule is unusable. */
static bool config__rule_entry(ConfigParser *p, const ConfigRuleDraft *d, size_t index, KbEntry *e) {
  if (!d->code || !d->pattern) {
    config__error(p, d->line, "rules[%zu]: `code` and `pattern` are required", index);
    return false;
  }
  if (!config__user_code(d->code)) {
    config__error(p, d->line, "rules[%zu]: code '%s' is not a user code: user rules use ASC900-ASC999 (domain 9)",
                  index, d->code);
    return false;
  }
  memset(e, 0, sizeof *e);
  e->code = d->code;
  e->pattern = d->pattern;
  e->match = KB_QUALNAME;
  if (d->kind && !config__kind(d->kind, &e->match)) {
    config__error(p, d->line, "rules (%s): unknown kind '%s' (qualname, method, import, env, package)", d->code,
                  d->kind);
    return false;
  }
  e->replacement = d->replacement ? d->replacement : d->fix;
  e->confidence = CONF_HIGH;
  if (d->confidence && !config__confidence(d->confidence, &e->confidence))
    config__error(p, d->line, "rules (%s): confidence must be high, medium or low", d->code);
  config__rule_fix(p, d, e);
  Config *c = p->c;
  if (d->message) e->msg_en = d->message;
  if (d->message_zh || d->message) e->msg_zh = d->message_zh ? d->message_zh : d->message;
  if (!d->message && !e->replacement)
    e->msg_en = config__keep(c, xstrdup("{subject} is CUDA-only in this project (project rule)"));
  if (!d->message_zh && !d->message && !e->replacement)
    e->msg_zh = config__keep(c, xstrdup("{subject} 在本项目中仅适用于 CUDA（项目规则）"));
  return true;
}

/* The documentation row for a user code, from its first rule. */
static KbRule config__rule_doc(ConfigParser *p, const ConfigRuleDraft *d, const KbEntry *e) {
  Config *c = p->c;
  KbRule r;
  memset(&r, 0, sizeof r);
  r.code = d->code;
  char *lower = xstrdup(d->code);
  for (char *q = lower; *q; q++) *q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
  r.name = d->name ? d->name : config__keep(c, xasprintf("project-%s", lower));
  free(lower);
  r.severity = SEV_WARNING;
  if (d->severity && !config__severity(d->severity, &r.severity))
    config__error(p, d->line, "rules (%s): severity must be error, warning, info or hint", d->code);
  r.effort = EFFORT_API_REVIEW;
  r.dep_class = e->match == KB_QUALNAME || e->match == KB_METHOD || e->match == KB_IMPORT ? DEP_CLASS_FRAMEWORK
                                                                                        : DEP_CLASS_NONE;
  const char *to = d->replacement ? d->replacement : d->fix;
  r.title_en = config__keep(c, xasprintf("Project rule: %s%s%s", d->pattern, to ? " -> " : "", to ? to : ""));
  r.title_zh = config__keep(c, xasprintf("项目规则：%s%s%s", d->pattern, to ? " -> " : "", to ? to : ""));
  const char *file = c->path ? c->path : "the project configuration";
  /* the message templates, filled with the pattern, explain the rule */
  char *en = d->message ? kb_format(d->message, d->pattern, to) : xstrdup("");
  char *zh = d->message_zh ? kb_format(d->message_zh, d->pattern, to) : xstrdup(en);
  r.why_en = config__keep(c, xasprintf("Declared in %s: this project does not allow `%s` on Ascend.%s%s", file,
                                       d->pattern, *en ? " " : "", en));
  r.why_zh = config__keep(c, xasprintf("在 %s 中声明：本项目在昇腾上不允许使用 `%s`。%s", file, d->pattern, zh));
  free(en);
  free(zh);
  r.before = d->pattern;
  r.after = to ? to : "";
  r.msg_en = to ? "{subject} is CUDA-only in this project; on Ascend use {replacement}"
                : "{subject} is CUDA-only in this project (project rule)";
  r.msg_zh = to ? "{subject} 在本项目中仅适用于 CUDA；昇腾上请使用 {replacement}"
                : "{subject} 在本项目中仅适用于 CUDA（项目规则）";
  return r;
}

static void config__build_rules(ConfigParser *p) {
  Config *c = p->c;
  if (!p->rules.len) return;
  c->user_entries = arena_alloc(&c->arena, p->rules.len * sizeof *c->user_entries);
  c->user_rules = arena_alloc(&c->arena, p->rules.len * sizeof *c->user_rules);
  for (size_t i = 0; i < p->rules.len; i++) {
    const ConfigRuleDraft *d = &p->rules.items[i];
    KbEntry e;
    if (!config__rule_entry(p, d, i, &e)) continue;
    c->user_entries[c->n_user_entries++] = e;
    bool have = false;
    for (size_t k = 0; k < c->n_user_rules && !have; k++) have = strcmp(c->user_rules[k].code, d->code) == 0;
    if (!have) c->user_rules[c->n_user_rules++] = config__rule_doc(p, d, &e);
  }
}

/* select + extend-select as config_apply hands them out; empty select
 * means every rule, which extend-select cannot widen. */
static void config__finish(Config *c) {
  if (c->n_select) {
    c->opt_select = arena_alloc(&c->arena, (c->n_select + c->n_extend_select + 1) * sizeof *c->opt_select);
    for (size_t i = 0; i < c->n_select; i++) c->opt_select[c->n_opt_select++] = c->select[i];
    for (size_t i = 0; i < c->n_extend_select; i++) c->opt_select[c->n_opt_select++] = c->extend_select[i];
  }
  c->report_unused_noqa = config_names_unused_noqa((const char *const *)c->select, c->n_select) ||
                          config_names_unused_noqa((const char *const *)c->extend_select, c->n_extend_select);
}

bool config_parse(Config *c, const char *text, size_t len, const char *path, bool pyproject) {
  memset(c, 0, sizeof *c);
  c->path = arena_strdup(&c->arena, path);
  ConfigParser p;
  memset(&p, 0, sizeof p);
  p.c = c;
  p.text = text;
  p.len = len;
  p.pyproject = pyproject;
  sb_init(&p.err);
  size_t skip = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* BOM: not TOML */
  p.text = text + skip;
  p.len = len - skip;
  TSParser *parser = ts_parser_new();
  if (nesting_too_deep(p.text, p.len, NESTING_TOML)) {
    config__error(&p, 0, "brackets nested too deep to parse");
    goto done;
  }
  ts_parser_set_language(parser, tree_sitter_toml());
  TSTree *tree = ts_parser_parse_string(parser, NULL, p.text, (uint32_t)p.len);
  if (!tree) {
    config__error(&p, 0, "could not parse the file");
    goto done;
  }
  TSNode root = ts_tree_root_node(tree);
  uint32_t bad = config__syntax_error(root);
  toml_walk(root, p.text, config__visit, &p);
  if (bad && (p.found || !pyproject)) config__error(&p, bad, "TOML syntax error; the rest of the file was read");
  config__build_rules(&p);
  config__finish(c);
  ts_tree_delete(tree);
done:
  ts_parser_delete(parser);
  array_free(&p.rules);
  c->error = p.err.len ? config__keep(c, sb_steal(&p.err)) : NULL;
  sb_free(&p.err);
  return p.found;
}

/* ---- finding and loading the file ------------------------------------------------- */

static char *config__dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return xstrdup(".");
  if (slash == path) return xstrdup("/");
  return xstrndup(path, (size_t)(slash - path));
}

static char *config__absolute(const char *dir) {
  char buf[PATH_MAX];
  if (realpath(dir, buf)) return xstrdup(buf);
  return NULL;
}

/* Reads and parses one candidate. Returns 1 when it is ours (c filled), 0
 * when it is not (c empty), -errno when unreadable. */
static int config__try(Config *c, const char *file, bool pyproject) {
  char *text = NULL;
  size_t len = 0;
  int rc = util_read_file(file, CONFIG_MAX_FILE, &text, &len);
  if (rc != 0) return rc;
  bool ours = config_parse(c, text, len, file, pyproject);
  free(text);
  if (!ours && pyproject) {
    config_free(c);
    return 0;
  }
  char *abs = config__absolute(file);
  c->root = config__keep(c, abs ? config__dirname(abs) : config__dirname(file));
  free(abs);
  if (c->cache_dir && c->cache_dir[0] != '/') c->cache_dir = config__keep(c, xasprintf("%s/%s", c->root, c->cache_dir));
  return 1;
}

static bool config__is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Walks up from dir; the first directory holding a config of ours wins. */
static void config__search(Config *c, const char *dir) {
  char *d = config__absolute(dir);
  while (d) {
    static const char *const names[] = {".ascend-lsp.toml", "pyproject.toml"};
    for (size_t i = 0; i < 2; i++) {
      char *f = xasprintf("%s/%s", strcmp(d, "/") == 0 ? "" : d, names[i]);
      int rc = config__is_file(f) ? config__try(c, f, i == 1) : 0;
      if (rc < 0) {
        memset(c, 0, sizeof *c);
        c->path = arena_strdup(&c->arena, f);
        c->error = config__keep(c, xasprintf("cannot read: %s", util_strerror(rc)));
      }
      free(f);
      if (rc != 0) {
        free(d);
        return;
      }
    }
    if (strcmp(d, "/") == 0) break;
    char *up = config__dirname(d);
    free(d);
    d = up;
  }
  free(d);
}

int config_load(Config *c, const char *dir, const char *explicit_path) {
  memset(c, 0, sizeof *c);
  if (explicit_path) {
    const char *b = strrchr(explicit_path, '/');
    b = b ? b + 1 : explicit_path;
    int rc = config__try(c, explicit_path, strcmp(b, "pyproject.toml") == 0);
    if (rc < 0) return rc;
    if (rc == 0) { /* a pyproject.toml without our section: an empty config, said so */
      c->path = arena_strdup(&c->arena, explicit_path);
      c->error = arena_strdup(&c->arena, "no [tool.ascend-lsp] section");
    }
  } else if (dir) {
    config__search(c, dir);
  }
  config_set_base(c, dir ? dir : ".");
  return 0;
}

void config_set_base(Config *c, const char *dir) {
  c->base = config__keep(c, config__absolute(dir ? dir : "."));
}

/* ---- applying it ---------------------------------------------------------------------- */

void config_apply(const Config *c, AnalyzeOptions *o) {
  if (c->chip_set) o->chip = c->chip;
  if (c->torch_npu) o->torch_npu = c->torch_npu;
  if (c->mindiesd_set) o->mindiesd = c->mindiesd;
  o->select = c->opt_select;
  o->n_select = c->n_opt_select;
  o->ignore = (const char *const *)c->ignore;
  o->n_ignore = c->n_ignore;
  o->user_entries = c->user_entries;
  o->n_user_entries = c->n_user_entries;
  o->user_rules = c->user_rules;
  o->n_user_rules = c->n_user_rules;
  o->report_unused_noqa = c->report_unused_noqa;
}

const KbRule *config_rule(const Config *c, const char *code) {
  const KbRule *r = kb_rule(code);
  for (size_t i = 0; !r && c && i < c->n_user_rules; i++)
    if (strcmp(c->user_rules[i].code, code) == 0) r = &c->user_rules[i];
  return r;
}

/* Lexically joins base and path and drops "." and ".." segments. Caller frees. */
static char *config__normalize(const char *base, const char *path) {
  char *joined = path[0] == '/' || !base ? xstrdup(path) : xasprintf("%s/%s", base, path);
  StrList parts = {0};
  for (char *s = joined, *tok; (tok = strsep(&s, "/"));) {
    if (!*tok || strcmp(tok, ".") == 0) continue;
    if (strcmp(tok, "..") == 0) {
      if (parts.len) free(parts.items[--parts.len]);
      continue;
    }
    array_push(&parts, xstrdup(tok));
  }
  StrBuf sb;
  sb_init(&sb);
  if (joined[0] == '/' || path[0] == '/' || base) sb_putc(&sb, '/');
  for (size_t i = 0; i < parts.len; i++) sb_printf(&sb, "%s%s", i ? "/" : "", parts.items[i]);
  strlist_free(&parts);
  free(joined);
  return sb_steal(&sb);
}

/* A glob on a path relative to the config root: `tests/<star>.py`, a
 * leading `<star><star>/`, a directory (`tests` covers what is under it) or
 * a bare file name (matched against the last segment). */
static bool config__glob_match(const char *glob, const char *rel) {
  while (strncmp(glob, "./", 2) == 0) glob += 2;
  if (util_glob(glob, rel)) return true;
  if (strncmp(glob, "**/", 3) == 0 && config__glob_match(glob + 3, rel)) return true;
  size_t n = strlen(glob);
  char *dir = xasprintf("%s%s*", glob, n && glob[n - 1] == '/' ? "" : "/");
  bool hit = util_glob(dir, rel);
  free(dir);
  if (hit) return true;
  const char *base = strrchr(rel, '/');
  return !strchr(glob, '/') && base && util_glob(glob, base + 1);
}

/* path relative to the config root when it lies under it, else as given. */
static char *config__relative(const Config *c, const char *path) {
  char *abs = config__normalize(path[0] == '/' ? NULL : c->base, path);
  if (c->root) {
    size_t n = strlen(c->root);
    if (strncmp(abs, c->root, n) == 0 && abs[n] == '/') {
      char *rel = xstrdup(abs + n + 1);
      free(abs);
      return rel;
    }
  }
  free(abs);
  return xstrdup(path);
}

static bool config__codes_cover(char *const *codes, size_t n, const char *code) {
  for (size_t i = 0; i < n; i++)
    if (util_starts_with(code, codes[i])) return true;
  return false;
}

bool config_file_ignores(const Config *c, const char *path, const char *code) {
  if (!c || !c->n_per_file_ignores) return false;
  char *rel = config__relative(c, path);
  bool hit = false;
  for (size_t i = 0; i < c->n_per_file_ignores && !hit; i++) {
    const ConfigFileIgnore *fi = &c->per_file_ignores[i];
    hit = config__codes_cover(fi->codes, fi->n_codes, code) && config__glob_match(fi->glob, rel);
  }
  free(rel);
  return hit;
}

void config_filter_findings(void *config, const char *path, FindingList *findings) {
  const Config *c = config;
  if (!c || !c->n_per_file_ignores || !findings->len) return;
  char *rel = config__relative(c, path);
  size_t n = c->n_per_file_ignores;
  bool *matched = xcalloc(n, sizeof *matched);
  for (size_t i = 0; i < n; i++) matched[i] = config__glob_match(c->per_file_ignores[i].glob, rel);
  free(rel);
  size_t w = 0;
  for (size_t i = 0; i < findings->len; i++) {
    Finding *f = &findings->items[i];
    bool drop = false;
    for (size_t k = 0; k < n && !drop; k++)
      drop = matched[k] && config__codes_cover(c->per_file_ignores[k].codes, c->per_file_ignores[k].n_codes,
                                               f->rule->code);
    if (drop) finding_free(f);
    else findings->items[w++] = *f;
  }
  findings->len = w;
  free(matched);
}

const char **config_file_ignore_codes(void *config, const char *path, size_t *n) {
  const Config *c = config;
  *n = 0;
  if (!c || !c->n_per_file_ignores) return NULL;
  char *rel = config__relative(c, path);
  size_t total = 0;
  for (size_t i = 0; i < c->n_per_file_ignores; i++) total += c->per_file_ignores[i].n_codes;
  const char **out = xcalloc(total + 1, sizeof *out);
  for (size_t i = 0; i < c->n_per_file_ignores; i++) {
    const ConfigFileIgnore *fi = &c->per_file_ignores[i];
    if (!config__glob_match(fi->glob, rel)) continue;
    for (size_t k = 0; k < fi->n_codes; k++) out[(*n)++] = fi->codes[k];
  }
  free(rel);
  if (*n == 0) {
    free(out);
    return NULL;
  }
  return out;
}

const char **config_excludes_for(Config *c, const char *scan_dir, size_t *n) {
  const char **out = xcalloc(c->n_exclude + 1, sizeof *out);
  *n = 0;
  char *scan = scan_dir ? config__absolute(scan_dir) : NULL;
  const char *prefix = NULL; /* scan_dir relative to the config root */
  if (scan && c->root && strncmp(scan, c->root, strlen(c->root)) == 0 && scan[strlen(c->root)] == '/')
    prefix = scan + strlen(c->root) + 1;
  for (size_t i = 0; i < c->n_exclude; i++) {
    const char *g = c->exclude[i];
    while (strncmp(g, "./", 2) == 0) g += 2;
    size_t pl = prefix ? strlen(prefix) : 0;
    if (prefix && strncmp(g, prefix, pl) == 0 && g[pl] == '/')
      out[(*n)++] = config__keep(c, xstrdup(g + pl + 1));
    else
      out[(*n)++] = g;
  }
  free(scan);
  return out;
}
