/* report: see report.h. How the verdict and the effort are computed is
 * documented in docs/report.md; the numbers live in effort.c. */
#include "analyzers/project/report.h"
#include "analyzers/project/report_priv.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* ---------------------------------------------------------------------------
 * Names
 * ------------------------------------------------------------------------- */

const char *report_priority_name(ReportPriority p, bool zh) {
  switch (p) {
  case PRIO_P0: return "P0";
  case PRIO_P1: return "P1";
  case PRIO_NONE: break;
  }
  return report_l(zh, "not involved", "不涉及");
}

const char *report_priority_id(ReportPriority p) {
  return p == PRIO_P0 ? "P0" : p == PRIO_P1 ? "P1" : "not-involved";
}

const char *report_level_name(ReportLevel l, bool zh) {
  switch (l) {
  case LEVEL_HIGH: return report_l(zh, "High", "高");
  case LEVEL_MEDIUM: return report_l(zh, "Medium", "中");
  case LEVEL_LOW: break;
  }
  return report_l(zh, "Low", "低");
}

const char *report_compat_name(CompatStatus s, bool zh) {
  switch (s) {
  case COMPAT_COMPATIBLE: return report_l(zh, "compatible", "兼容");
  case COMPAT_REPLACE: return report_l(zh, "needs replacement", "需替换");
  case COMPAT_UNSUPPORTED: return report_l(zh, "unsupported", "不支持");
  case COMPAT_NOT_INVOLVED: break;
  }
  return report_l(zh, "not involved", "不涉及");
}

const char *report_compat_id(CompatStatus s) {
  static const char *const ids[] = {"compatible", "needs-replacement", "unsupported", "not-involved"};
  return (unsigned)s <= COMPAT_NOT_INVOLVED ? ids[s] : ids[0];
}

const char *report_class_name(DepClass c, bool zh) {
  switch (c) {
  case DEP_CLASS_FRAMEWORK: return report_l(zh, "Framework API (torch.cuda, device strings)", "框架 API（torch.cuda、设备字符串）");
  case DEP_CLASS_RUNTIME: return report_l(zh, "CUDA runtime API (cudaMalloc, streams)", "CUDA 运行时 API（cudaMalloc、流）");
  case DEP_CLASS_VENDOR_LIB: return report_l(zh, "Vendor libraries (cuBLAS, cuDNN, NCCL, flash-attn)", "厂商库（cuBLAS、cuDNN、NCCL、flash-attn）");
  case DEP_CLASS_KERNEL: return report_l(zh, "Hand-written kernels (.cu, Triton)", "手写内核（.cu、Triton）");
  case DEP_CLASS_NONE: break;
  }
  return report_l(zh, "Other", "其他");
}

const char *report_class_id(DepClass c) {
  switch (c) {
  case DEP_CLASS_FRAMEWORK: return "framework-api";
  case DEP_CLASS_RUNTIME: return "cuda-runtime-api";
  case DEP_CLASS_VENDOR_LIB: return "vendor-library";
  case DEP_CLASS_KERNEL: return "hand-written-kernel";
  case DEP_CLASS_NONE: break;
  }
  return "none";
}

const char *report_route_name(RouteId id, bool zh) {
  switch (id) {
  case ROUTE_A: return report_l(zh, "A. Framework-level migration (torch_npu adaptation layer)", "A. 框架层迁移（torch_npu 适配层）");
  case ROUTE_B: return report_l(zh, "B. Operator rewriting (Ascend C / Triton-Ascend / torch_npu ops)", "B. 算子重写（Ascend C / Triton-Ascend / torch_npu 算子）");
  case ROUTE_C: return report_l(zh, "C. Dual-stack coexistence (CUDA and Ascend pools side by side)", "C. 双栈共存（CUDA 与昇腾资源池并行）");
  }
  return "";
}

const char *report_domain_title(int d, bool zh) {
  if (d < 0 || d > 7) return kb_text(KBT_DOMAIN_TITLE_OTHER, zh);
  return kb_text((KbText)(KBT_DOMAIN_TITLE_0 + d), zh);
}

const char *report_domain_short(int d, bool zh) {
  return kb_text((KbText)(KBT_DOMAIN_SHORT_0 + (d < 0 || d > 7 ? 0 : d)), zh);
}

const char *report_chip_name(unsigned chip) {
  switch (chip) {
  case CHIP_A3: return "A3";
  case CHIP_910A: return "910A";
  case CHIP_310P: return "310P";
  case CHIP_950: return "950";
  default: break;
  }
  return "910B";
}

void report_phase_list(const Report *r, uint64_t mask, StrBuf *sb) {
  bool first = true;
  for (size_t p = 0; p < r->phases.len; p++) {
    if (!(mask & ((uint64_t)1 << p))) continue;
    if (!first) sb_puts(sb, report_l(r->zh, ", ", "、"));
    sb_puts(sb, r->phases.items[p].name);
    first = false;
  }
}

/* ---------------------------------------------------------------------------
 * Report - Private: project and target
 * ------------------------------------------------------------------------- */

/* Value of `name = "..."` in the [section] of a TOML/INI text. Caller frees. */
static char *report__ini_value(const char *text, const char *section, const char *key) {
  bool in = false;
  size_t sl = strlen(section), kl = strlen(key);
  const char *p = text;
  while (*p) {
    size_t n = strcspn(p, "\n");
    const char *l = p;
    p += n;
    if (*p) p++;
    while (n && isspace((unsigned char)*l)) {
      l++;
      n--;
    }
    if (n && *l == '[') {
      in = n >= sl && strncmp(l, section, sl) == 0 && (n == sl || isspace((unsigned char)l[sl]) || l[sl] == '#');
      continue;
    }
    if (!in || n <= kl || strncmp(l, key, kl) != 0) continue;
    const char *v = l + kl;
    const char *end = l + n;
    while (v < end && isspace((unsigned char)*v)) v++;
    if (v >= end || (*v != '=' && *v != ':')) continue;
    v++;
    while (v < end && isspace((unsigned char)*v)) v++;
    if (v < end && (*v == '"' || *v == '\'')) {
      char q = *v++;
      const char *e = memchr(v, q, (size_t)(end - v));
      if (e && e > v) return xstrndup(v, (size_t)(e - v));
    } else if (v < end) {
      const char *e = end;
      while (e > v && isspace((unsigned char)e[-1])) e--;
      if (e > v) return xstrndup(v, (size_t)(e - v));
    }
  }
  return NULL;
}

static char *report__project_name(const ReportFile *files, size_t n, const ReportOptions *o) {
  if (o->project && *o->project) return xstrdup(o->project);
  for (size_t i = 0; i < n && o->read; i++) {
    bool pyproject = strcmp(files[i].path, "pyproject.toml") == 0, cfg = strcmp(files[i].path, "setup.cfg") == 0;
    if (!pyproject && !cfg) continue;
    size_t len;
    char *text = o->read(o->read_data, i, &len);
    if (!text) continue;
    char *name = pyproject ? report__ini_value(text, "[project]", "name") : report__ini_value(text, "[metadata]", "name");
    if (!name && pyproject) name = report__ini_value(text, "[tool.poetry]", "name");
    free(text);
    if (name) return name;
  }
  if (o->root_name && *o->root_name && strcmp(o->root_name, ".") != 0 && strcmp(o->root_name, "/") != 0)
    return xstrdup(o->root_name);
  return xstrdup("Project");
}

/* ---------------------------------------------------------------------------
 * Report - Private: items and groups
 * ------------------------------------------------------------------------- */

static void report__patterns(Report *r);

static bool report__split_by_subject(const ReportItem *it) {
  const KbRule *rule = it->f->rule;
  /* headers are one row per rule: they go with the code that includes them */
  if (report_is_include(it->f)) return false;
  if (it->domain == 1 || it->f->severity == SEV_ERROR) return true;
  EffortUnit u = effort_rate(rule->effort)->unit;
  return u == EFFORT_UNIT_SUBJECT || u == EFFORT_UNIT_PATTERN || u == EFFORT_UNIT_KERNEL;
}

static int report__item_cmp(const void *pa, const void *pb) {
  const ReportItem *a = pa, *b = pb;
  if (a->domain != b->domain) return a->domain < b->domain ? -1 : 1;
  int c = strcmp(a->path, b->path);
  if (c) return c;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->column != b->column) return a->column < b->column ? -1 : 1;
  return strcmp(a->f->rule->code, b->f->rule->code);
}

typedef struct {
  char *key;
  size_t item;
} GroupKey;

static int report__key_cmp(const void *pa, const void *pb) {
  const GroupKey *a = pa, *b = pb;
  int c = strcmp(a->key, b->key);
  if (c) return c;
  return a->item < b->item ? -1 : a->item > b->item;
}

static ReportPriority report__prio(uint64_t mask, uint64_t all) {
  if (mask == 0 || all == 0) return PRIO_NONE;
  return (mask & all) == all ? PRIO_P0 : PRIO_P1;
}

/* A path's file name (its extension is a noise word of the family key). */
static const char *report__stem(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Kernel findings of fd's rule in its file's list. */
static size_t report__same_rule_kernels(const FindingList *l, const Finding *fd) {
  size_t n = 0;
  for (size_t k = 0; k < l->len; k++)
    if (l->items[k].rule == fd->rule && report_is_kernel(&l->items[k])) n++;
  return n;
}

/* Whether a subject's top-level module ("flash_attn" of
 * "flash_attn.flash_attn_func") is a module of the project itself. */
static bool report__own_module(const PhaseGraph *g, size_t from, const char *subject) {
  if (!subject || !*subject || !isalpha((unsigned char)subject[0])) return false;
  size_t n = strspn(subject, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  if (n == 0 || (subject[n] != '.' && subject[n] != '\0')) return false;
  char *top = xstrndup(subject, n);
  bool own = phases_resolve(g, from, top) != (size_t)-1;
  free(top);
  return own;
}

static VerdictItem report__verdict_item(const ReportItem *it) {
  VerdictItem v;
  v.severity = it->f->severity;
  v.kind = it->f->rule->effort;
  /* a header include is never what makes a port hard: the code using it is */
  if (report_is_include(it->f) && v.kind == EFFORT_CUDA_KERNEL) v.kind = EFFORT_NATIVE_LIB;
  if (it->own_api) v.kind = EFFORT_NONE;
  v.p0 = it->prio == PRIO_P0;
  v.involved = it->prio != PRIO_NONE;
  v.guarded = it->f->guarded;
  v.has_replacement = it->f->replacement && *it->f->replacement;
  return v;
}

static EffortItem report__effort_item(const ReportItem *it) {
  /* what transfer_to_npu handles at run time (route A) costs nothing */
  bool transfer = it->f->transfer_covered || (it->f->entry && it->f->entry->transfer_covered);
  /* a CUDA runtime wheel goes away with the environment (CANN) */
  if (it->domain == 1 && it->f->subject && phases_is_environment_dist(it->f->subject)) transfer = true;
  /* a header changes with the calls and kernels it serves, which are costed */
  if (report_is_include(it->f)) transfer = true;
  /* a call of the project's own API (its tests calling flash_attn_func) is
   * ported with the API itself */
  if (it->own_api) transfer = true;
  EffortItem e = {it->f->rule->effort, it->f->subject, it->f->detail, it->f->weight, it->f->guarded,
                  transfer, it->f->rule->code, it->file, false};
  if (it->family) { /* one port per kernel family; an NPU op replaces it when the replacement names one */
    e.subject = it->family;
    char *op = report_kernel_op(it->f);
    e.has_op = op != NULL;
    free(op);
  }
  return e;
}

/* Lower-cased subject without version or extras, for package identity. */
static char *report__package_key(const char *s) {
  if (!s) return xstrdup("");
  while (isspace((unsigned char)*s)) s++;
  size_t n = 0;
  while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '_' || s[n] == '.')) n++;
  if (n == 0) return xstrdup(s);
  char *k = xstrndup(s, n);
  for (char *c = k; *c; c++) {
    *c = (char)tolower((unsigned char)*c);
    if (*c == '_' || *c == '.') *c = '-';
  }
  return k;
}

static int report__group_rank_cmp(const ReportGroup *a, const ReportGroup *b) {
  if (a->prio != b->prio) return a->prio < b->prio ? -1 : 1;
  if (a->level != b->level) return a->level > b->level ? -1 : 1;
  if (a->centidays != b->centidays) return a->centidays > b->centidays ? -1 : 1;
  int c = strcmp(a->rule->code, b->rule->code);
  if (c) return c;
  return strcmp(a->label, b->label);
}

static void report__build_groups(Report *r) {
  size_t n = r->items.len;
  GroupKey *keys = xmalloc((n ? n : 1) * sizeof *keys);
  for (size_t i = 0; i < n; i++) {
    const ReportItem *it = &r->items.items[i];
    char *sub = NULL;
    if (it->family) sub = xstrdup(it->family);
    else if (report__split_by_subject(it))
      sub = it->domain == 1 ? report__package_key(it->f->subject) : xstrdup(it->f->subject ? it->f->subject : "");
    keys[i].key = xasprintf("%s\x1f%s", it->f->rule->code, sub ? sub : "");
    keys[i].item = i;
    free(sub);
  }
  if (n > 1) qsort(keys, n, sizeof *keys, report__key_cmp);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && strcmp(keys[i].key, keys[j].key) == 0) j++;
    ReportGroup g = {0};
    const ReportItem *first = &r->items.items[keys[i].item];
    g.rule = first->f->rule;
    g.domain = first->domain;
    g.severity = SEV_HINT;
    g.guarded = true;
    g.level = VERDICT_FEASIBLE;
    bool split = report__split_by_subject(first);
    for (size_t k = i; k < j; k++) {
      size_t idx = keys[k].item;
      const ReportItem *it = &r->items.items[idx];
      array_push(&g.items, idx);
      g.phases |= it->phases;
      if (it->f->severity < g.severity) g.severity = it->f->severity;
      if (!it->f->guarded) g.guarded = false;

      VerdictItem v = report__verdict_item(it);
      Verdict lv = effort_item_verdict(&v);
      if (lv > g.level) g.level = lv;
    }
    /* items were sorted before grouping, so member order is item order */
    for (size_t a = 1; a < g.items.len; a++) {
      size_t v = g.items.items[a], b = a;
      while (b > 0 && g.items.items[b - 1] > v) {
        g.items.items[b] = g.items.items[b - 1];
        b--;
      }
      g.items.items[b] = v;
    }
    /* a rule-level row covers several constructs: show their replacements */
    StrList repl = {0};
    bool more = false;
    for (size_t k = 0; k < g.items.len; k++) {
      const char *rp = r->items.items[g.items.items[k]].f->replacement;
      if (!rp || !*rp) continue;
      bool dup = false;
      for (size_t q = 0; q < repl.len && !dup; q++) dup = strcmp(repl.items[q], rp) == 0;
      if (dup) continue;
      if (repl.len == 3) {
        more = true;
        break;
      }
      array_push(&repl, xstrdup(rp));
    }
    if (repl.len) {
      StrBuf rb;
      sb_init(&rb);
      for (size_t q = 0; q < repl.len; q++) {
        if (q) sb_puts(&rb, "; ");
        sb_puts(&rb, repl.items[q]);
      }
      if (more) sb_puts(&rb, "; ...");
      g.replacement = sb_steal(&rb);
    }
    strlist_free(&repl);
    g.label_is_code = split && first->f->subject && *first->f->subject;
    g.label = g.label_is_code
                  ? xstrdup(first->f->subject)
                  : xstrdup(report_l(r->zh, g.rule->title_en, g.rule->title_zh));
    g.prio = report__prio(g.phases, r->phases.len ? (r->phases.len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r->phases.len) - 1)) : 0);
    /* an API the target does not support on a path every phase runs is a
     * blocker, not a warning (the codes are a list in kb_report.def) */
    if (g.prio == PRIO_P0 && !g.guarded && kb_pattern_match(kb_template("report-p0-errors"), g.rule->code))
      g.severity = SEV_ERROR;
    /* calls of the project's own API are ported with it: not blockers */
    bool own = true;
    for (size_t k = 0; k < g.items.len && own; k++) own = r->items.items[g.items.items[k]].own_api;
    g.blocker = g.prio != PRIO_NONE && !report_is_include(first->f) && !own &&
                ((g.severity == SEV_ERROR && !g.guarded) || g.level >= VERDICT_DIFFICULT);
    array_push(&r->groups, g);
    i = j;
  }
  for (size_t i = 0; i < n; i++) free(keys[i].key);
  free(keys);
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    for (size_t k = 0; k < g->items.len; k++) r->items.items[g->items.items[k]].group = gi;
  }
}

/* Matrix order, once the groups' effort is known: P0, P1, not involved;
 * then the verdict level, the effort, the code and the label. */
static void report__order_groups(Report *r) {
  /* insertion sort: stable, and the rows are few */
  size_t ng = r->groups.len;
  for (size_t a = 1; a < ng; a++) {
    ReportGroup v = r->groups.items[a];
    size_t b = a;
    while (b > 0 && report__group_rank_cmp(&r->groups.items[b - 1], &v) > 0) {
      r->groups.items[b] = r->groups.items[b - 1];
      b--;
    }
    r->groups.items[b] = v;
  }
  for (size_t gi = 0; gi < ng; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    for (size_t k = 0; k < g->items.len; k++) r->items.items[g->items.items[k]].group = gi;
    if (g->blocker) array_push(&r->blockers, gi);
  }
}

/* "status: needs replacement" in a domain-1 finding's detail. */
static bool report__parse_status(const char *detail, CompatStatus *out) {
  if (!detail) return false;
  const char *p = strstr(detail, "status:");
  if (!p) return false;
  p += 7;
  while (*p == ' ') p++;
  static const struct {
    const char *prefix;
    CompatStatus s;
  } map[] = {
      {"compatible", COMPAT_COMPATIBLE},   {"needs replacement", COMPAT_REPLACE}, {"needs-replacement", COMPAT_REPLACE},
      {"replace", COMPAT_REPLACE},         {"unsupported", COMPAT_UNSUPPORTED},   {"not supported", COMPAT_UNSUPPORTED},
      {"not involved", COMPAT_NOT_INVOLVED}, {"not-involved", COMPAT_NOT_INVOLVED},
      {"兼容", COMPAT_COMPATIBLE},         {"需替换", COMPAT_REPLACE},            {"不支持", COMPAT_UNSUPPORTED},
      {"不涉及", COMPAT_NOT_INVOLVED},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strncasecmp(p, map[i].prefix, strlen(map[i].prefix)) == 0) {
      *out = map[i].s;
      return true;
    }
  return false;
}

static void report__build_compat(Report *r) {
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    if (it->domain != 1) continue;
    char *key = report__package_key(it->f->subject);
    ReportCompat *row = NULL;
    for (size_t k = 0; k < r->compat.len; k++) {
      char *other = report__package_key(r->compat.items[k].package);
      bool same = strcmp(other, key) == 0;
      free(other);
      if (same) row = &r->compat.items[k];
    }
    CompatStatus st;
    if (!report__parse_status(it->f->detail, &st))
      st = it->f->severity == SEV_ERROR ? COMPAT_UNSUPPORTED
           : it->f->severity == SEV_WARNING ? COMPAT_REPLACE
                                            : COMPAT_COMPATIBLE;
    if (row) {
      char *d = xasprintf("%s, %s:%u", row->declared, it->path, it->line);
      free(row->declared);
      row->declared = d;
      row->phases |= it->phases;
      if (st != COMPAT_NOT_INVOLVED && (row->declared_status == COMPAT_NOT_INVOLVED || st > row->declared_status))
        row->declared_status = st;
      if (!row->replacement && it->f->replacement && *it->f->replacement) row->replacement = it->f->replacement;
    } else {
      ReportCompat c = {0};
      c.package = xstrdup(it->f->subject ? it->f->subject : "?");
      c.declared = xasprintf("%s:%u", it->path, it->line);
      c.declared_status = st;
      c.replacement = it->f->replacement && *it->f->replacement ? it->f->replacement : NULL;
      c.phases = it->phases;
      c.item = i;
      array_push(&r->compat, c);
    }
    free(key);
  }
  uint64_t all = r->phases.len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r->phases.len) - 1);
  for (size_t k = 0; k < r->compat.len; k++) {
    ReportCompat *c = &r->compat.items[k];
    c->prio = report__prio(c->phases, all);
    /* a package no phase uses is not involved in the task, whatever its status */
    c->status = c->prio == PRIO_NONE ? COMPAT_NOT_INVOLVED : c->declared_status;
  }
}

/* ---------------------------------------------------------------------------
 * Report - Private: phases
 * ------------------------------------------------------------------------- */

static char *report__fold_text(const PhaseEntry *en, bool zh) {
  switch (en->fold) {
  case FOLD_SELFTEST: return xasprintf(kb_text(KBT_FOLD_SELFTEST, zh), en->via ? en->via : "?");
  case FOLD_SUBSET: return xstrdup(kb_text(KBT_FOLD_SUBSET, zh));
  case FOLD_SAME_REACH: return xstrdup(kb_text(KBT_FOLD_SAME_REACH, zh));
  case FOLD_OTHER: return xstrdup(kb_text(KBT_FOLD_OTHER, zh));
  case FOLD_OVERRIDE: return xstrdup(kb_text(KBT_FOLD_OVERRIDE, zh));
  case FOLD_API:
  case FOLD_NAMED: break;
  }
  return xstrdup(kb_text(KBT_FOLD_NAMED, zh));
}

static void report__phase_names(Report *r, const PhaseGraph *g) {
  r->implicit_phase = g->implicit;
  r->library = g->library;
  for (size_t t = 0; t < g->tooling.len; t++)
    array_push(&r->tooling, xasprintf("%s (%s)", g->tooling.items[t].label,
                                      phases_tool_reason(g->tooling.items[t].reason, r->zh)));
  for (size_t p = 0; p < g->phases.len; p++) {
    const Phase *ph = &g->phases.items[p];
    ReportPhase rp = {0};
    const char *known = phases_kind_name(ph->kind, r->zh);
    /* a detected phase of a known kind shows its localized name; overrides
     * and custom names stay as written */
    bool detected_known = known && strcmp(ph->name, phases_kind_name(ph->kind, false)) == 0;
    if (g->implicit) rp.name = xstrdup(report_l(r->zh, "Project", "项目"));
    else rp.name = xstrdup(detected_known ? known : ph->name);
    rp.kind = ph->kind;
    for (size_t e = 0; e < ph->entries.len; e++) {
      const PhaseEntry *en = &g->entries.items[ph->entries.items[e]];
      array_push(&rp.entries, xstrdup(en->label));
      array_push(&rp.how, report__fold_text(en, r->zh));
    }
    for (size_t t = 0; t < ph->tasks.len; t++) array_push(&rp.tasks, xstrdup(ph->tasks.items[t]));
    rp.multi_device = ph->multi_device;
    rp.n_reached = ph->n_reached;
    for (size_t i = 0; i < g->n_files; i++)
      if (ph->reach[i]) array_push(&rp.reached, xstrdup(g->files[i].path));
    array_push(&r->phases, rp);
  }
}

/* Minimal migration set of each phase: the matrix rows it needs, the files
 * to change, and its own effort (one validation run included). */
static void report__phase_sets(Report *r, size_t n) {
  for (size_t p = 0; p < r->phases.len; p++) {
    ReportPhase *rp = &r->phases.items[p];
    uint64_t bit = (uint64_t)1 << p;
    for (size_t gi = 0; gi < r->groups.len; gi++)
      if (r->groups.items[gi].phases & bit) array_push(&rp->groups, gi);
    uint8_t *has = xcalloc(n ? n : 1, 1);
    Array(EffortItem) eff = {0};
    for (size_t i = 0; i < r->items.len; i++) {
      const ReportItem *it = &r->items.items[i];
      if (!(it->phases & bit)) continue;
      has[it->file] = 1;
      array_push(&eff, report__effort_item(it));
    }
    for (size_t i = 0; i < n; i++)
      if (has[i]) array_push(&rp->files, i);
    free(has);
    effort_compute(eff.items, eff.len, 1, &rp->effort, NULL);
    rp->half_weeks = effort_half_weeks(rp->effort.total);
    array_free(&eff);
  }
}

/* ---------------------------------------------------------------------------
 * Report - Private: verdict, classes, route
 * ------------------------------------------------------------------------- */

static void report__labels_of(const Report *r, Verdict level, bool p0_only, StrBuf *sb, size_t max) {
  size_t shown = 0, total = 0;
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    if (g->level != level || (p0_only && g->prio != PRIO_P0)) continue;
    /* the same construct under two rules (an import and its call) once */
    bool seen = false;
    for (size_t o = 0; o < gi && !seen; o++) {
      const ReportGroup *h = &r->groups.items[o];
      seen = h->level == level && (!p0_only || h->prio == PRIO_P0) && strcmp(h->label, g->label) == 0;
    }
    if (seen) continue;
    total++;
    if (shown >= max) continue;
    if (shown) sb_puts(sb, ", ");
    sb_puts(sb, g->label);
    shown++;
  }
  if (total > shown) sb_printf(sb, report_l(r->zh, " and %zu more", " 等另外 %zu 项"), total - shown);
}

static bool report__has_level(const Report *r, Verdict level, bool p0_only) {
  for (size_t gi = 0; gi < r->groups.len; gi++)
    if (r->groups.items[gi].level == level && (!p0_only || r->groups.items[gi].prio == PRIO_P0)) return true;
  return false;
}

/* The kernel families of a kernel product are its blockers, in matrix order. */
static void report__product_blockers(Report *r) {
  for (size_t k = 0; k < r->families.len; k++) {
    ReportGroup *g = &r->groups.items[r->families.items[k].group];
    if (g->prio == PRIO_NONE || g->blocker) continue;
    g->blocker = true;
    array_push(&r->blockers, r->families.items[k].group);
  }
  for (size_t a = 1; a < r->blockers.len; a++) { /* keep matrix order */
    size_t v = r->blockers.items[a], b = a;
    while (b > 0 && r->blockers.items[b - 1] > v) {
      r->blockers.items[b] = r->blockers.items[b - 1];
      b--;
    }
    r->blockers.items[b] = v;
  }
}

/* "`flash_fwd`, `flash_bwd` and 3 more": the families, for the verdict. */
static void report__family_list(const Report *r, StrBuf *sb, size_t max) {
  size_t shown = 0;
  for (size_t k = 0; k < r->families.len; k++) {
    if (r->groups.items[r->families.items[k].group].prio == PRIO_NONE) continue;
    if (shown == max) {
      sb_printf(sb, report_l(r->zh, " and %zu more", " 等另外 %zu 项"), r->families.len - k);
      break;
    }
    sb_printf(sb, "%s`%s`", shown++ ? ", " : "", r->families.items[k].key);
  }
}

static void report__verdict(Report *r) {
  Verdict v = VERDICT_FEASIBLE;
  for (size_t gi = 0; gi < r->groups.len; gi++)
    if (r->groups.items[gi].level > v) v = r->groups.items[gi].level;
  if (r->kernel_product && v < VERDICT_DIFFICULT) v = VERDICT_DIFFICULT;
  r->verdict = v;
  StrBuf sb;
  sb_init(&sb);
  bool zh = r->zh;
  if (r->kernel_product) {
    sb_printf(&sb, kb_text(KBT_VERDICT_PRODUCT, zh), r->kernel_lines, r->code_lines,
              r->library ? kb_text(KBT_VERDICT_PRODUCT_LIB, zh) : "");
    report__family_list(r, &sb, 8);
    array_push(&r->verdict_reasons, sb_steal(&sb));
    sb_init(&sb);
  }
  switch (v) {
  case VERDICT_INFEASIBLE:
    sb_puts(&sb, report_l(zh, "A dependency on the P0 path has no Ascend path at all: ",
                          "P0 路径上的依赖在昇腾上完全没有替代路径："));
    report__labels_of(r, VERDICT_INFEASIBLE, true, &sb, 6);
    break;
  case VERDICT_DIFFICULT:
    if (r->kernel_product && !report__has_level(r, VERDICT_DIFFICULT, true)) break;
    sb_puts(&sb, report_l(zh, "Hand-written kernels, unsupported dependencies or prebuilt CUDA binaries on the P0 path: ",
                          "P0 路径上存在手写内核、不支持的依赖或预编译 CUDA 库："));
    report__labels_of(r, VERDICT_DIFFICULT, true, &sb, 6);
    break;
  case VERDICT_ADAPT:
    sb_puts(&sb, report_l(zh, "Changes beyond mechanical rewrites, with known NPU counterparts: ",
                          "存在机械替换之外、但有已知 NPU 对应方案的改动："));
    report__labels_of(r, VERDICT_ADAPT, false, &sb, 6);
    break;
  case VERDICT_FEASIBLE:
    sb_puts(&sb, report_l(zh, "Only mechanical changes (quick fixes, transfer_to_npu) and review-only findings on the task path.",
                          "任务路径上只有机械替换（快速修复、transfer_to_npu）和仅需审查的发现。"));
    break;
  }
  if (sb.len) array_push(&r->verdict_reasons, sb_steal(&sb));
  else sb_free(&sb);
  /* harder items outside P0 do not raise the verdict: say so */
  size_t p1_hard = 0;
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    EffortKind k = g->rule->effort;
    bool hard = k == EFFORT_CUDA_KERNEL || k == EFFORT_TRITON || k == EFFORT_DEP_UNSUPPORTED || k == EFFORT_REBUILD;
    if (hard && g->level < VERDICT_DIFFICULT && g->prio != PRIO_NONE) p1_hard++;
  }
  if (p1_hard && !r->kernel_product)
    array_push(&r->verdict_reasons,
               xasprintf(report_l(zh, "%zu kernel or unsupported-dependency item(s) are only on P1 paths or guarded, so they "
                                      "do not make the project difficult.",
                                  "%zu 个内核或不支持依赖项仅位于 P1 路径或有回退，因此不判为困难。"),
                         p1_hard));
}

static void report__classes_and_route(Report *r) {
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    DepClass c = g->rule->dep_class;
    if ((unsigned)c > DEP_CLASS_KERNEL) c = DEP_CLASS_NONE;
    r->classes[c].groups++;
    for (size_t k = 0; k < g->items.len; k++) {
      r->classes[c].findings++;
      if (r->items.items[g->items.items[k]].prio != PRIO_NONE) r->classes[c].involved++;
    }
  }
  bool zh = r->zh;
  size_t kernels = r->classes[DEP_CLASS_KERNEL].involved, runtime = r->classes[DEP_CLASS_RUNTIME].involved;
  size_t fw = r->classes[DEP_CLASS_FRAMEWORK].involved, vendor = r->classes[DEP_CLASS_VENDOR_LIB].involved;
  /* a phase whose minimal set is free of difficult items can move first
   * while the others stay on CUDA */
  bool clean_phase = false, blocked_phase = false;
  for (size_t p = 0; p < r->phases.len; p++) {
    bool hard = false;
    for (size_t k = 0; k < r->phases.items[p].groups.len; k++) {
      const ReportGroup *g = &r->groups.items[r->phases.items[p].groups.items[k]];
      EffortKind ek = g->rule->effort;
      if (!g->guarded && (ek == EFFORT_CUDA_KERNEL || ek == EFFORT_TRITON || ek == EFFORT_DEP_UNSUPPORTED ||
                          ek == EFFORT_REBUILD))
        hard = true;
    }
    if (hard) blocked_phase = true;
    else clean_phase = true;
  }
  /* the kernels are the product: no phase runs without them */
  if (r->kernel_product) clean_phase = false;
  if (r->verdict == VERDICT_INFEASIBLE || (clean_phase && blocked_phase && r->phases.len > 1)) {
    r->route = ROUTE_C;
    if (r->verdict == VERDICT_INFEASIBLE)
      array_push(&r->route_reasons, xstrdup(report_l(zh, "A P0 dependency has no Ascend path: keep the CUDA pool for the "
                                                         "phases that need it and route new work to Ascend.",
                                                     "某个 P0 依赖在昇腾上没有替代路径：保留 CUDA 资源池承担依赖它的阶段，新业务路由到昇腾。")));
    if (clean_phase && blocked_phase && r->phases.len > 1) {
      StrBuf sb;
      sb_init(&sb);
      sb_puts(&sb, report_l(zh, "Phases without kernel blockers can move first (", "没有内核类阻塞项的阶段可以先迁移（"));
      bool first = true;
      for (size_t p = 0; p < r->phases.len; p++) {
        bool hard = false;
        for (size_t k = 0; k < r->phases.items[p].groups.len; k++) {
          const ReportGroup *g = &r->groups.items[r->phases.items[p].groups.items[k]];
          EffortKind ek = g->rule->effort;
          if (!g->guarded && (ek == EFFORT_CUDA_KERNEL || ek == EFFORT_TRITON || ek == EFFORT_DEP_UNSUPPORTED ||
                              ek == EFFORT_REBUILD))
            hard = true;
        }
        if (hard) continue;
        if (!first) sb_puts(&sb, ", ");
        sb_puts(&sb, r->phases.items[p].name);
        first = false;
      }
      sb_puts(&sb, report_l(zh, ") while the others keep running on CUDA.", "），其余阶段继续在 CUDA 上运行。"));
      array_push(&r->route_reasons, sb_steal(&sb));
    }
    if (kernels)
      array_push(&r->route_reasons, xasprintf(report_l(zh, "%zu hand-written kernel finding(s) need route B rewrites before "
                                                           "the blocked phases can switch.",
                                                       "%zu 个手写内核发现需先按路线 B 重写，受阻阶段才能切换。"),
                                              kernels));
  } else if (kernels || runtime || r->verdict == VERDICT_DIFFICULT) {
    r->route = ROUTE_B;
    array_push(&r->route_reasons,
               xasprintf(report_l(zh, "%zu hand-written kernel and %zu CUDA runtime API finding(s) on task paths: they need "
                                      "Ascend C / Triton-Ascend / torch_npu operator work.",
                                  "任务路径上有 %zu 个手写内核和 %zu 个 CUDA 运行时 API 发现：需要 Ascend C / Triton-Ascend / "
                                  "torch_npu 算子工作。"),
                         kernels, runtime));
    array_push(&r->route_reasons, xstrdup(report_l(zh, "The framework-level part still follows route A (torch_npu, transfer_to_npu).",
                                                   "框架层部分仍按路线 A（torch_npu、transfer_to_npu）进行。")));
  } else {
    r->route = ROUTE_A;
    array_push(&r->route_reasons,
               xasprintf(report_l(zh, "No hand-written kernels or CUDA runtime calls on task paths: %zu framework API and "
                                      "%zu vendor-library finding(s), all with torch_npu / CANN counterparts.",
                                  "任务路径上没有手写内核或 CUDA 运行时调用：%zu 个框架 API 和 %zu 个厂商库发现，均有 torch_npu / CANN "
                                  "对应方案。"),
                         fw, vendor));
    array_push(&r->route_reasons, xstrdup(report_l(zh, "80% of applications migrate at the framework layer; start with "
                                                       "torch_npu and transfer_to_npu.",
                                                   "80% 的应用在框架层即可完成迁移；从 torch_npu 与 transfer_to_npu 入手。")));
  }
}

/* ---------------------------------------------------------------------------
 * Report - Private: roadmap, risks, checklist
 * ------------------------------------------------------------------------- */

static ReportStep *report__step(Report *r, const char *title) {
  ReportStep s = {0};
  s.title = xstrdup(title);
  array_push(&r->roadmap, s);
  return &r->roadmap.items[r->roadmap.len - 1];
}

static void report__line(ReportStep *s, char *text, const size_t *items, size_t n) {
  ReportLine l = {0};
  l.text = text;
  for (size_t i = 0; i < n; i++) array_push(&l.items, items[i]);
  array_push(&s->lines, l);
}

/* A roadmap line for a group: "label (`path:line`, ...) -> replacement". */
static void report__group_line(ReportStep *s, const ReportGroup *g, const char *prefix) {
  StrBuf sb;
  sb_init(&sb);
  if (prefix) sb_puts(&sb, prefix);
  sb_puts(&sb, g->label);
  sb_printf(&sb, " [%s]", g->rule->code);
  if (g->replacement) sb_printf(&sb, " → %s", g->replacement);
  size_t n = g->items.len < 3 ? g->items.len : 3;
  report__line(s, sb_steal(&sb), g->items.items, n);
}

static size_t report__count_kind(const Report *r, EffortKind k, bool involved_only) {
  size_t n = 0;
  for (size_t i = 0; i < r->items.len; i++)
    if (r->items.items[i].f->rule->effort == k && (!involved_only || r->items.items[i].prio != PRIO_NONE)) n++;
  return n;
}

static void report__roadmap(Report *r, const PhaseGraph *g) {
  bool zh = r->zh;
  /* 1. environment */
  ReportStep *s = report__step(r, report_l(zh, "Environment", "环境准备"));
  /* the profile's note on its build (kb_meta.def), when the report names that build */
  const KbProfile *profile = kb_profile_find(r->torch_npu);
  const char *note = profile && strcmp(r->torch_npu, profile->package) == 0 ? report_l(zh, profile->note_en, profile->note_zh) : "";
  report__line(s,
               xasprintf(report_l(zh, "Install CANN %s, torch %s and torch_npu %s%s on Atlas %s%s.",
                                  "安装 CANN %s、torch %s 与 torch_npu %s%s，目标硬件 Atlas %s%s。"),
                         r->cann, r->torch, r->torch_npu,
                         note,
                         r->chip, r->mindiesd ? report_l(zh, ", with mindiesd", "，并安装 mindiesd") : ""),
               NULL, 0);
  report__line(s, xstrdup(report_l(zh, "torch and torch_npu versions must match (torch_npu X.Y.Z.postN runs on torch X.Y.Z).",
                                   "torch 与 torch_npu 版本必须配对（torch_npu X.Y.Z.postN 对应 torch X.Y.Z）。")),
               NULL, 0);
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *gr = &r->groups.items[gi];
    if (gr->domain != 1 || gr->prio == PRIO_NONE) continue;
    report__group_line(s, gr, report_l(zh, "Dependency: ", "依赖："));
  }
  /* 2. route A quick start */
  s = report__step(r, report_l(zh, "Route A quick start (transfer_to_npu)", "路线 A 快速起步（transfer_to_npu）"));
  StrBuf sb;
  sb_init(&sb);
  size_t shown = 0;
  for (size_t e = 0; e < g->entries.len; e++) {
    const PhaseEntry *en = &g->entries.items[e];
    if (en->target == (size_t)-1) continue;
    const char *path = g->files[en->target].path;
    if (strstr(sb.data ? sb.data : "", path)) continue;
    if (shown++) sb_puts(&sb, ", ");
    sb_printf(&sb, "`%s`", path);
  }
  if (shown)
    report__line(s,
                 xasprintf(report_l(zh, "Add `import torch_npu` and `from torch_npu.contrib import transfer_to_npu` at the top of "
                                        "each entry point: %s.",
                                    "在每个入口文件顶部加入 `import torch_npu` 与 `from torch_npu.contrib import transfer_to_npu`：%s。"),
                           sb.data),
                 NULL, 0);
  else
    report__line(s, xstrdup(report_l(zh, "Add `import torch_npu` and `from torch_npu.contrib import transfer_to_npu` before the "
                                         "first torch import of the program.",
                                     "在程序第一次导入 torch 之前加入 `import torch_npu` 与 `from torch_npu.contrib import transfer_to_npu`。")),
                 NULL, 0);
  sb_free(&sb);
  size_t mech = report__count_kind(r, EFFORT_MECHANICAL, true);
  report__line(s,
               xasprintf(report_l(zh, "%zu mechanical finding(s) on task paths: apply the safe quick fixes with `ascend-lsp fix` "
                                      "(review `--unsafe-fixes` separately), or leave them to transfer_to_npu.",
                                  "任务路径上有 %zu 个机械替换项：用 `ascend-lsp fix` 应用安全修复（`--unsafe-fixes` 需单独审阅），或交给 "
                                  "transfer_to_npu。"),
                         mech),
               NULL, 0);
  report__line(s, xstrdup(report_l(zh, "Run every phase once on NPU and collect the operators that fall back to CPU from the logs.",
                                   "在 NPU 上把每个阶段跑通一次，并从日志中收集回退到 CPU 的算子。")),
               NULL, 0);
  /* 3. P0 blockers */
  s = report__step(r, report_l(zh, "P0 items (needed by every phase)", "P0 项（所有阶段都需要）"));
  size_t before = s->lines.len;
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *gr = &r->groups.items[gi];
    if (gr->prio != PRIO_P0 || gr->level < VERDICT_ADAPT) continue;
    report__group_line(s, gr, gr->blocker ? report_l(zh, "Blocker: ", "阻塞项：") : NULL);
  }
  if (s->lines.len == before)
    report__line(s, xstrdup(report_l(zh, "None beyond the mechanical rewrites above.", "除上述机械替换外无其他项。")), NULL, 0);
  /* 4. P1 items, per phase */
  s = report__step(r, report_l(zh, "P1 items (needed by some phases)", "P1 项（部分阶段需要）"));
  before = s->lines.len;
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    for (size_t k = 0; k < ph->groups.len; k++) {
      const ReportGroup *gr = &r->groups.items[ph->groups.items[k]];
      if (gr->prio != PRIO_P1 || gr->level < VERDICT_ADAPT) continue;
      char *prefix = xasprintf("%s: ", ph->name);
      report__group_line(s, gr, prefix);
      free(prefix);
    }
  }
  if (s->lines.len == before)
    report__line(s, xstrdup(report_l(zh, "None beyond mechanical rewrites.", "除机械替换外无其他项。")), NULL, 0);
  /* 5. precision */
  s = report__step(r, report_l(zh, "Precision validation", "精度验证"));
  size_t prec = report__count_kind(r, EFFORT_PRECISION, true);
  if (prec)
    report__line(s,
                 xasprintf(report_l(zh, "Review the %zu precision finding(s) (Domain 6) and decide the NPU dtype for each.",
                                    "审查 %zu 个精度相关发现（域 6），逐一确定 NPU 上的数据类型。"),
                           prec),
                 NULL, 0);
  else
    report__line(s, xstrdup(report_l(zh, "No precision finding on task paths: keep the dtypes and still compare outputs.",
                                     "任务路径上没有精度相关发现：保持数据类型不变，但仍需比对输出。")),
                 NULL, 0);
  report__line(s, xstrdup(report_l(zh, "Same input on CUDA and NPU: output difference < 1e-3 in FP32, same order of magnitude "
                                       "under AMP.",
                                   "CUDA 与 NPU 使用相同输入：FP32 下输出差异 < 1e-3，AMP 下处于同一数量级。")),
               NULL, 0);
  bool training = false;
  for (size_t p = 0; p < r->phases.len; p++)
    if (r->phases.items[p].kind == PHASE_TRAINING) training = true;
  if (training)
    report__line(s, xstrdup(report_l(zh, "Training: loss curves consistent with CUDA, final accuracy gap < 1%.",
                                     "训练：loss 曲线与 CUDA 一致，最终精度差距 < 1%。")),
                 NULL, 0);
  /* 6. performance */
  s = report__step(r, report_l(zh, "Performance", "性能"));
  report__line(s, xstrdup(report_l(zh, "Profile with torch_npu.profiler and compare step time and throughput at the same "
                                       "batch size; target 60-90% of the CUDA baseline, with each regression explained at "
                                       "operator level.",
                                   "使用 torch_npu.profiler 在相同批大小下比较单步时间与吞吐；目标为 CUDA 基线的 60-90%，每处性能回退需"
                                   "定位到算子级。")),
               NULL, 0);
  size_t comp = report__count_kind(r, EFFORT_COMPILE, true);
  if (comp)
    report__line(s,
                 xasprintf(report_l(zh, "%zu compile / graph finding(s): start in eager mode, then enable an NPU backend "
                                        "(npugraphs, inductor on Triton-Ascend, TorchAir) module by module.",
                                    "%zu 个编译 / 图模式发现：先以 eager 模式运行，再逐模块启用 NPU 后端（npugraphs、基于 "
                                    "Triton-Ascend 的 inductor、TorchAir）。"),
                           comp),
                 NULL, 0);
  size_t dist = report__count_kind(r, EFFORT_DISTRIBUTED, true);
  if (dist)
    report__line(s,
                 xasprintf(report_l(zh, "%zu distributed finding(s): validate HCCL collectives on the target card count, "
                                        "then a 72-hour stability run.",
                                    "%zu 个分布式发现：在目标卡数上验证 HCCL 集合通信，再进行 72 小时稳定性运行。"),
                           dist),
                 NULL, 0);
}

/* Risks per effort kind: what can go wrong and what to do. */
static const struct {
  EffortKind kind;
  const char *risk_en, *risk_zh, *mit_en, *mit_zh;
} report__risk_rows[] = {
    {EFFORT_CUDA_KERNEL, "Hand-written CUDA kernels have no automatic translation; the Ascend C rewrite dominates the schedule",
     "手写 CUDA 内核无法自动转换，Ascend C 重写决定整体进度",
     "Look for a torch_npu / mindiesd fused op first; otherwise rewrite in Ascend C with precision tests, and keep the "
     "CUDA pool running meanwhile (route C)",
     "优先寻找 torch_npu / mindiesd 融合算子；否则用 Ascend C 重写并做精度测试，期间保留 CUDA 资源池（路线 C）"},
    {EFFORT_TRITON, "Triton kernels may not compile or may run slowly on Triton-Ascend",
     "Triton 内核在 Triton-Ascend 上可能无法编译或性能不佳",
     "Port one kernel first, retune block sizes, keep a torch / torch_npu composition as fallback",
     "先移植一个内核，重新调整分块大小，保留 torch / torch_npu 组合实现作为回退"},
    {EFFORT_DEP_UNSUPPORTED, "A dependency has no NPU build", "某依赖没有 NPU 版本",
     "Replace its functionality (SDPA, torch_npu ops) or isolate it behind a feature flag",
     "用 SDPA、torch_npu 算子替换其功能，或通过特性开关隔离"},
    {EFFORT_REBUILD, "Prebuilt binaries link CUDA libraries and cannot load on NPU", "预编译库链接了 CUDA 库，无法在 NPU 上加载",
     "Rebuild them from source against CANN or replace them", "基于 CANN 从源码重建或替换"},
    {EFFORT_ATTENTION, "Attention rewrites change tensor layout and masking: silent numerical drift",
     "注意力改写会改变张量布局与掩码：可能出现静默的数值偏差",
     "Compare outputs per layer against CUDA (diff < 1e-3 in FP32); keep the BSND/BNSD/TND transposes explicit",
     "逐层与 CUDA 比对输出（FP32 差异 < 1e-3）；显式保留 BSND/BNSD/TND 转置"},
    {EFFORT_NATIVE_LIB, "CUDA runtime and library C calls map to ACL / HCCL with different signatures",
     "CUDA 运行时与库的 C 调用映射到 ACL / HCCL 时签名不同",
     "Put device calls behind one adapter and unit-test memory copies and collectives",
     "将设备调用收敛到一个适配层，并对内存拷贝和集合通信做单元测试"},
    {EFFORT_DEP_REPLACE, "Ascend counterparts of dependencies lag upstream versions", "依赖的昇腾版本落后于上游",
     "Pin versions to the torch_npu pairing and run each package's own tests on NPU",
     "按 torch_npu 配对固定版本，并在 NPU 上运行各包自带的测试"},
    {EFFORT_DISTRIBUTED, "HCCL collectives differ from NCCL (dtype and world-size limits); hangs show up late",
     "HCCL 集合通信与 NCCL 存在差异（数据类型与规模限制），挂起问题往往较晚暴露",
     "Run multi-card tests early and a 72-hour stability run before sign-off", "尽早进行多卡测试，验收前进行 72 小时稳定性运行"},
    {EFFORT_PRECISION, "fp64 / complex128 and fp32-protected code changes precision on NPU (transfer_to_npu downcasts fp64 "
                       "silently)",
     "fp64 / complex128 与 fp32 保护的代码在 NPU 上精度会变化（transfer_to_npu 会静默把 fp64 降为 fp32）",
     "Compare with the CUDA baseline; use complex64 or real cos/sin; keep norms in fp32 where the model needs it",
     "与 CUDA 基线比对；使用 complex64 或实数 cos/sin；模型需要时保持归一化在 fp32"},
    {EFFORT_COMPILE, "torch.compile / CUDA graphs need an NPU backend; graph breaks cost performance",
     "torch.compile / CUDA Graph 需要 NPU 后端；图中断会损失性能",
     "Start in eager mode, then enable npugraphs or inductor on Triton-Ascend per module and measure",
     "先以 eager 模式运行，再逐模块启用 npugraphs 或基于 Triton-Ascend 的 inductor 并测量"},
    {EFFORT_API_REVIEW, "APIs without a direct NPU equivalent need hand-written changes, and behave differently until "
                        "then (unsupported torch.cuda calls fail, capability queries return None)",
     "无直接 NPU 对应的 API 需要手工修改，修改前行为不同（不支持的 torch.cuda 调用报错、算力查询返回 None）",
     "Rewrite the gates with explicit NPU branches and test both paths", "用显式的 NPU 分支改写这些判断，并测试两条路径"},
    {EFFORT_MECHANICAL, "transfer_to_npu patches torch.cuda at run time: torch.cuda.is_available() turns True and "
                        "torch.jit.script is disabled, which misleads libraries' device detection",
     "transfer_to_npu 在运行时替换 torch.cuda：torch.cuda.is_available() 变为 True，torch.jit.script 被禁用，会误导第三方库的设备检测",
     "Prefer explicit torch.npu rewrites (`ascend-lsp fix`) in code that selects backends; test library detection",
     "在选择后端的代码中优先使用显式的 torch.npu 改写（`ascend-lsp fix`），并测试库的设备检测"},
};

static void report__risks(Report *r) {
  bool zh = r->zh;
  for (size_t k = 0; k < sizeof report__risk_rows / sizeof report__risk_rows[0]; k++) {
    EffortKind kind = report__risk_rows[k].kind;
    size_t n = 0, p0 = 0;
    Severity worst = SEV_HINT;
    for (size_t i = 0; i < r->items.len; i++) {
      const ReportItem *it = &r->items.items[i];
      if (it->f->rule->effort != kind || it->prio == PRIO_NONE) continue;
      n++;
      if (it->prio == PRIO_P0 && !it->f->guarded) p0++;
      if (it->f->severity < worst) worst = it->f->severity;
    }
    if (!n) continue;
    ReportRisk rk;
    rk.likelihood = p0 ? LEVEL_HIGH : LEVEL_MEDIUM;
    rk.impact = worst == SEV_ERROR ? LEVEL_HIGH : worst == SEV_WARNING ? LEVEL_MEDIUM : LEVEL_LOW;
    if (kind == EFFORT_MECHANICAL) {
      rk.likelihood = LEVEL_MEDIUM;
      rk.impact = LEVEL_MEDIUM;
    }
    rk.risk = xasprintf(report_l(zh, "%s (%zu finding(s), %zu unguarded on P0)", "%s（%zu 个发现，其中 %zu 个位于 P0 且无回退）"),
                        report_l(zh, report__risk_rows[k].risk_en, report__risk_rows[k].risk_zh), n, p0);
    rk.mitigation = xstrdup(report_l(zh, report__risk_rows[k].mit_en, report__risk_rows[k].mit_zh));
    array_push(&r->risks, rk);
  }
  size_t guarded = 0;
  for (size_t i = 0; i < r->items.len; i++)
    if (r->items.items[i].f->guarded && r->items.items[i].prio != PRIO_NONE) guarded++;
  if (guarded) {
    ReportRisk rk = {
        xasprintf(report_l(zh, "Guarded code (try/except ImportError, availability checks) may silently take a slower "
                               "fallback on NPU (%zu finding(s))",
                           "有回退的代码（try/except ImportError、可用性判断）在 NPU 上可能静默走较慢的回退路径（%zu 个发现）"),
                  guarded),
        xstrdup(report_l(zh, "Log which path runs and make the NPU path explicit", "记录实际执行的路径，并显式编写 NPU 分支")),
        LEVEL_MEDIUM, LEVEL_MEDIUM};
    array_push(&r->risks, rk);
  }
  size_t unlinked = 0;
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    if (it->prio == PRIO_NONE && it->domain == 4) unlinked++;
  }
  if (unlinked) {
    ReportRisk rk = {
        xasprintf(report_l(zh, "%zu custom-operator finding(s) are in code no entry point reaches through imports or build "
                               "scripts; the link may be dynamic",
                           "%zu 个自定义算子发现位于任何入口都无法通过导入或构建脚本到达的代码中；可能存在动态加载"),
                  unlinked),
        xstrdup(report_l(zh, "Check how these sources are built and loaded; add them with --phase NAME=GLOB if a phase uses them",
                         "确认这些源码如何构建与加载；若某阶段使用它们，用 --phase NAME=GLOB 指定")),
        LEVEL_MEDIUM, LEVEL_HIGH};
    array_push(&r->risks, rk);
  }
  if (r->items.len) {
    ReportRisk rk = {
        xstrdup(report_l(zh, "Operators without an NPU implementation fall back to CPU with only a warning",
                         "没有 NPU 实现的算子会回退到 CPU，且只有一条警告")),
        xstrdup(report_l(zh, "Check the torch_npu operator support list for the target version; fail the acceptance run on "
                             "fallback warnings in hot paths",
                         "对照目标版本的 torch_npu 算子支持列表；热点路径出现回退警告即判定验收失败")),
        LEVEL_MEDIUM, LEVEL_MEDIUM};
    array_push(&r->risks, rk);
  }
}

static void report__check(Report *r, const char *area, char *item, const char *threshold) {
  ReportCheck c = {xstrdup(area), item, xstrdup(threshold)};
  array_push(&r->checklist, c);
}

static void report__checklist(Report *r) {
  bool zh = r->zh;
  StrBuf sb;
  sb_init(&sb);
  report_phase_list(r, r->phases.len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r->phases.len) - 1), &sb);
  report__check(r, report_l(zh, "Correctness", "正确性"),
                xasprintf(report_l(zh, "Every phase runs end to end on NPU (%s) with the same inputs as on CUDA",
                                   "每个阶段（%s）在 NPU 上以与 CUDA 相同的输入端到端跑通"),
                          sb.data ? sb.data : ""),
                report_l(zh, "no error, no CPU fallback in hot operators", "无报错，热点算子无 CPU 回退"));
  sb_free(&sb);
  report__check(r, report_l(zh, "Correctness", "正确性"),
                xstrdup(report_l(zh, "Outputs compared with the CUDA baseline", "与 CUDA 基线比对输出")),
                report_l(zh, "diff < 1e-3 (FP32) / same order of magnitude (AMP)", "差异 < 1e-3（FP32）/ 同一数量级（AMP）"));
  size_t blockers = r->blockers.len;
  if (blockers)
    report__check(r, report_l(zh, "Correctness", "正确性"),
                  xasprintf(report_l(zh, "Each of the %zu blocker(s) has a replacement verified on NPU",
                                     "%zu 个阻塞项均已在 NPU 上验证替代方案"),
                            blockers),
                  report_l(zh, "per-operator output diff within the threshold above", "逐算子输出差异在上述阈值内"));
  report__check(r, report_l(zh, "Precision", "精度"),
                xstrdup(report_l(zh, "Training convergence compared with CUDA (training phases)", "训练收敛性与 CUDA 对比（训练阶段）")),
                report_l(zh, "loss trends consistent, final accuracy gap < 1%", "loss 趋势一致，最终精度差距 < 1%"));
  report__check(r, report_l(zh, "Performance", "性能"),
                xstrdup(report_l(zh, "Step time and throughput at the same batch size, profiled to operator level",
                                 "相同批大小下的单步时间与吞吐，剖析到算子级")),
                report_l(zh, "60-90% of the CUDA baseline (by scenario)", "CUDA 基线的 60-90%（视场景而定）"));
  report__check(r, report_l(zh, "Stability", "稳定性"),
                xstrdup(report_l(zh, "Long run of the main phase on the target card count", "在目标卡数上长时间运行主要阶段")),
                report_l(zh, "72 h without OOM or hang", "72 小时无 OOM、无挂起"));
}

/* ---------------------------------------------------------------------------
 * Report - build
 * ------------------------------------------------------------------------- */

static char *report__read_bridge(void *data, size_t index, size_t *len) {
  const ReportOptions *o = data;
  return o->read ? o->read(o->read_data, index, len) : NULL;
}

void report_build(Report *r, const ReportFile *files, size_t n, const ReportOptions *o) {
  memset(r, 0, sizeof *r);
  r->zh = o->zh;
  r->project = report__project_name(files, n, o);
  r->chip = report_chip_name(o->chip);
  /* the target profile (kb_meta.def): a bare release names the build the
   * profile gives for it (2.7.1 -> 2.7.1.post2), and the CANN it pairs with */
  const char *npu = o->torch_npu && *o->torch_npu ? o->torch_npu : kb_profile_default()->torch_npu;
  const KbProfile *profile = kb_profile_find(npu);
  r->torch_npu = xstrdup(profile && strcmp(npu, profile->torch_npu) == 0 ? profile->package : npu);
  {
    const char *post = strstr(r->torch_npu, ".post");
    const char *rc = strstr(r->torch_npu, "rc");
    const char *cut = post ? post : rc;
    r->torch = cut ? xstrndup(r->torch_npu, (size_t)(cut - r->torch_npu)) : xstrdup(r->torch_npu);
  }
  if (o->cann && *o->cann) r->cann = xstrdup(o->cann);
  else if (profile) r->cann = xstrdup(profile->cann);
  else r->cann = xstrdup(report_l(r->zh, "(the release paired with this torch_npu)", "（与该 torch_npu 配套的版本）"));
  r->mindiesd = o->mindiesd;

  /* phases */
  PhaseFile *pf = xcalloc(n ? n : 1, sizeof *pf);
  for (size_t i = 0; i < n; i++) pf[i] = (PhaseFile){files[i].path, files[i].kind, files[i].facts};
  PhaseGraph g;
  phases_build(&g, pf, n, o->phases, o->n_phases, o->read ? report__read_bridge : NULL, (void *)o);
  uint64_t all = phases_all(&g);

  /* items */
  for (size_t i = 0; i < n; i++) {
    const ReportFile *f = &files[i];
    r->n_files++;
    if (f->facts) r->n_lines += f->facts->lines;
    if (f->facts) r->n_test_findings += f->facts->test_findings;
    if (f->kind == FILE_PYTHON) r->n_python++;
    if (!f->findings) continue;
    for (size_t k = 0; k < f->findings->len; k++) {
      const Finding *fd = &f->findings->items[k];
      if (!fd->rule) continue;
      int d = kb_domain(fd->rule->code);
      if (d == 0) continue; /* meta rules are about the analysis, not the migration */
      if (d == 8) continue; /* call sites of project code restate a construct counted where it is */
      ReportItem it = {0};
      it.f = fd;
      it.file = i;
      it.path = f->path;
      it.line = fd->start_row + 1;
      it.column = fd->start_char + 1;
      it.domain = d;
      if (d == 1) it.phases = fd->subject && *fd->subject ? phases_of_package(&g, fd->subject) : all;
      else it.phases = phases_of_file(&g, i);
      /* code nothing in the project runs (the project model) is not involved */
      it.prio = fd->unreachable ? PRIO_NONE : report__prio(it.phases, all);
      /* Python DSL kernels (CuTe, Triton) of one rule in one module are one
       * family, named after the module: their own names are often helpers'
       * (`__call__`, `create`) */
      if (report_is_kernel(fd))
        it.family = report_kernel_family(f->kind == FILE_PYTHON && report__same_rule_kernels(f->findings, fd) > 1
                                             ? report__stem(f->path)
                                             : fd->subject);
      it.own_api = d == 3 && report__own_module(&g, i, fd->subject);
      array_push(&r->items, it);
    }
  }
  if (r->items.len > 1) qsort(r->items.items, r->items.len, sizeof *r->items.items, report__item_cmp);
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    Severity s = it->f->severity;
    if ((unsigned)s <= SEV_HINT) r->by_severity[s]++;
    if (it->prio == PRIO_P0) r->n_p0++;
    else if (it->prio == PRIO_P1) r->n_p1++;
    else r->n_none++;
    if (it->f->guarded) r->n_guarded++;
  }
  /* phases must exist before groups compute their priority */
  report__phase_names(r, &g);
  report__build_groups(r);
  report__build_compat(r);

  /* effort: what some phase needs, and the rest as optional; each unit's
   * cost is attributed to one finding so that matrix rows add up */
  Array(EffortItem) inv = {0}, opt = {0};
  Array(size_t) inv_idx = {0}, opt_idx = {0};
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    if (it->prio == PRIO_NONE) {
      array_push(&opt, report__effort_item(it));
      array_push(&opt_idx, i);
    } else {
      array_push(&inv, report__effort_item(it));
      array_push(&inv_idx, i);
    }
  }
  int64_t *cost = xcalloc(r->items.len ? r->items.len : 1, sizeof *cost);
  effort_compute(inv.items, inv.len, r->phases.len, &r->effort, cost);
  for (size_t k = 0; k < inv.len; k++) {
    const ReportItem *it = &r->items.items[inv_idx.items[k]];
    r->groups.items[it->group].centidays += cost[k];
    /* the pie adds up to the total: only what some phase needs */
    if (it->domain >= 0 && it->domain < 8) r->domain_cd[it->domain] += cost[k];
  }
  effort_compute(opt.items, opt.len, 0, &r->optional, cost);
  for (size_t k = 0; k < opt.len; k++) r->groups.items[r->items.items[opt_idx.items[k]].group].centidays += cost[k];
  free(cost);
  r->half_weeks = effort_half_weeks(r->effort.total);
  array_free(&inv);
  array_free(&opt);
  array_free(&inv_idx);
  array_free(&opt_idx);

  report__order_groups(r);
  report_kernels_build(r, files, n);
  report_kernels_unblock(r);
  r->kernel_product = report_kernel_product(r);
  if (r->kernel_product) report__product_blockers(r);
  report__phase_sets(r, n);
  report__verdict(r);
  report__classes_and_route(r);
  report__roadmap(r, &g);
  report__risks(r);
  report__checklist(r);
  if (r->blockers.len) report_blast_build(r, files, n, &g);

  report__patterns(r);
  for (size_t i = 0; i < g.notes.len; i++) array_push(&r->notes, xstrdup(g.notes.items[i]));
  for (size_t i = 0; i < o->n_notes; i++) array_push(&r->notes, xstrdup(o->notes[i]));
  phases_free(&g);
  free(pf);
}

/* A replacement long enough to be a pattern, and code: a call whose name
 * comes before the first blank ("torch_npu.npu_fusion_attention(q, ..."),
 * not prose that happens to be long. */
static bool report__is_pattern(const char *s) {
  if (!s || strlen(s) < REPORT_PATTERN_MIN) return false;
  const char *paren = strchr(s, '('), *blank = strchr(s, ' ');
  return paren && (!blank || paren < blank);
}

long report_pattern_of(const Report *r, const char *s) {
  if (!report__is_pattern(s)) return -1;
  for (size_t i = 0; i < r->patterns.len; i++)
    if (strcmp(r->patterns.items[i], s) == 0) return (long)i;
  return -1;
}

void report_write_replacement(const Report *r, const char *s, const ReportReplWriter *w, void *data) {
  if (!s || !*s) {
    w->none(data);
    return;
  }
  while (*s) {
    const char *end = strstr(s, "; ");
    size_t n = end ? (size_t)(end - s) : strlen(s);
    char *part = xstrndup(s, n);
    long pat = report_pattern_of(r, part);
    if (pat >= 0) w->pattern(data, pat + 1);
    else if (!strchr(part, ' ')) w->code(data, part);
    else w->prose(data, part);
    free(part);
    s += n;
    if (*s) {
      w->separator(data);
      s += 2;
    }
  }
}

/* Adds the pattern parts of a "; "-joined replacement list. */
static void report__pattern_add(Report *r, const char *s) {
  while (s && *s) {
    const char *end = strstr(s, "; ");
    size_t n = end ? (size_t)(end - s) : strlen(s);
    char *part = xstrndup(s, n);
    bool dup = !report__is_pattern(part);
    for (size_t i = 0; i < r->patterns.len && !dup; i++) dup = strcmp(r->patterns.items[i], part) == 0;
    if (dup) free(part);
    else array_push(&r->patterns, part);
    s += n;
    if (*s) s += 2;
  }
}

/* The long replacements in matrix order, then the findings' own. */
static void report__patterns(Report *r) {
  for (size_t gi = 0; gi < r->groups.len; gi++) report__pattern_add(r, r->groups.items[gi].replacement);
  for (size_t i = 0; i < r->items.len; i++) report__pattern_add(r, r->items.items[i].f->replacement);
}

void report_free(Report *r) {
  strlist_free(&r->patterns);
  free(r->project);
  free(r->torch);
  free(r->torch_npu);
  free(r->cann);
  strlist_free(&r->verdict_reasons);
  array_free(&r->blockers);
  for (size_t i = 0; i < r->items.len; i++) free(r->items.items[i].family);
  array_free(&r->items);
  for (size_t k = 0; k < r->families.len; k++) {
    ReportFamily *f = &r->families.items[k];
    free(f->key);
    free(f->what);
    free(f->op);
    free(f->inst_example);
    strlist_free(&f->kernels);
  }
  array_free(&r->families);
  for (size_t i = 0; i < r->groups.len; i++) {
    free(r->groups.items[i].label);
    free(r->groups.items[i].replacement);
    array_free(&r->groups.items[i].items);
  }
  array_free(&r->groups);
  for (size_t i = 0; i < r->phases.len; i++) {
    ReportPhase *p = &r->phases.items[i];
    free(p->name);
    strlist_free(&p->entries);
    strlist_free(&p->how);
    strlist_free(&p->tasks);
    strlist_free(&p->reached);
    array_free(&p->groups);
    array_free(&p->files);
  }
  array_free(&r->phases);
  for (size_t i = 0; i < r->compat.len; i++) {
    free(r->compat.items[i].package);
    free(r->compat.items[i].declared);
  }
  array_free(&r->compat);
  strlist_free(&r->route_reasons);
  for (size_t i = 0; i < r->roadmap.len; i++) {
    ReportStep *s = &r->roadmap.items[i];
    free(s->title);
    for (size_t k = 0; k < s->lines.len; k++) {
      free(s->lines.items[k].text);
      array_free(&s->lines.items[k].items);
    }
    array_free(&s->lines);
  }
  array_free(&r->roadmap);
  for (size_t i = 0; i < r->risks.len; i++) {
    free(r->risks.items[i].risk);
    free(r->risks.items[i].mitigation);
  }
  array_free(&r->risks);
  for (size_t i = 0; i < r->checklist.len; i++) {
    free(r->checklist.items[i].area);
    free(r->checklist.items[i].item);
    free(r->checklist.items[i].threshold);
  }
  array_free(&r->checklist);
  for (size_t i = 0; i < r->blast.len; i++) {
    ReportBlast *b = &r->blast.items[i];
    for (size_t w = 0; w < b->wrappers.len; w++) {
      ReportWrapper *wr = &b->wrappers.items[w];
      free(wr->symbol);
      free(wr->path);
      for (size_t c = 0; c < wr->callers.len; c++) {
        free(wr->callers.items[c].path);
        free(wr->callers.items[c].function);
      }
      array_free(&wr->callers);
    }
    array_free(&b->wrappers);
  }
  array_free(&r->blast);
  strlist_free(&r->notes);
  strlist_free(&r->tooling);
  memset(r, 0, sizeof *r);
}

void report_summary(const Report *r, ReportSummary *s) {
  memset(s, 0, sizeof *s);
  s->verdict = verdict_zh(r->verdict);
  s->verdict_en = verdict_en(r->verdict);
  s->verdict_id = verdict_id(r->verdict);
  s->weeks = (double)r->half_weeks / 2.0;
  s->person_days = (double)r->effort.total / 100.0;
  s->files = r->n_files;
  s->findings = r->items.len;
  s->blockers = r->blockers.len;
  s->p0 = r->n_p0;
  s->p1 = r->n_p1;
  s->not_involved = r->n_none;
  s->phases = r->phases.len;
}
