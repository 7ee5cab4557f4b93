/* report_md: the Markdown report, in the seed template's structure and
 * heading order (seeds/000 "Output Format"): title, Executive Summary,
 * Dependency Matrix (per task phase), Detailed Findings (per domain) with
 * Domain 1..6, compilation after domain 6, the dependency classes and the
 * route, then Migration Roadmap and Risk Matrix; the acceptance checklist
 * and the effort computation follow. Chinese headings for --lang zh. */
#include "analyzers/project/report_priv.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------
 * Report_md - Private: escaping
 * ------------------------------------------------------------------------- */

/* Text inside a table cell or a list item: no line breaks, no raw HTML
 * (only a '<' before a letter, '/', '!' or '?' can open a tag: "< 1e-3"
 * stays readable), pipes escaped. */
static void report_md__text(StrBuf *sb, const char *s) {
  if (!s) return;
  for (; *s; s++) {
    switch (*s) {
    case '|': sb_puts(sb, "\\|"); break;
    case '<':
      if (isalpha((unsigned char)s[1]) || s[1] == '/' || s[1] == '!' || s[1] == '?') sb_puts(sb, "&lt;");
      else sb_putc(sb, '<');
      break;
    case '\r': break;
    case '\n': sb_putc(sb, ' '); break;
    default: sb_putc(sb, *s);
    }
  }
}

/* Text cut at REPORT_CELL_MAX bytes (at a UTF-8 boundary) with "...". */
static void report_md__cell(StrBuf *sb, const char *s) {
  if (!s) return;
  size_t n = strlen(s);
  if (n <= REPORT_CELL_MAX) {
    report_md__text(sb, s);
    return;
  }
  size_t cut = REPORT_CELL_MAX - 3;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
  char *t = xstrndup(s, cut);
  report_md__text(sb, t);
  sb_puts(sb, "...");
  free(t);
}

/* A code span that survives backticks and pipes in the code. */
static void report_md__code(StrBuf *sb, const char *s) {
  if (!s) return;
  bool tick = strchr(s, '`') != NULL;
  sb_puts(sb, tick ? "`` " : "`");
  for (; *s; s++) {
    if (*s == '|') sb_puts(sb, "\\|");
    else if (*s == '\n' || *s == '\r') sb_putc(sb, ' ');
    else sb_putc(sb, *s);
  }
  sb_puts(sb, tick ? " ``" : "`");
}

/* Replacement: code when it is one token, prose otherwise, a long one by
 * its pattern name; a row's "; "-joined list part by part. */
typedef struct {
  const Report *r;
  StrBuf *sb;
} ReportMdRepl;

static void report_md__repl_pattern(void *d, long n) {
  ReportMdRepl *m = d;
  sb_printf(m->sb, kb_text(KBT_PATTERN_REF, m->r->zh), n);
}
static void report_md__repl_code(void *d, const char *part) { report_md__code(((ReportMdRepl *)d)->sb, part); }
static void report_md__repl_prose(void *d, const char *part) { report_md__cell(((ReportMdRepl *)d)->sb, part); }
static void report_md__repl_sep(void *d) { sb_puts(((ReportMdRepl *)d)->sb, "; "); }
static void report_md__repl_none(void *d) { sb_puts(((ReportMdRepl *)d)->sb, "—"); }

static void report_md__replacement(const Report *r, StrBuf *sb, const char *s) {
  static const ReportReplWriter w = {report_md__repl_pattern, report_md__repl_code, report_md__repl_prose,
                                     report_md__repl_sep, report_md__repl_none};
  ReportMdRepl m = {r, sb};
  report_write_replacement(r, s, &w, &m);
}

static void report_md__days(StrBuf *sb, bool zh, int64_t cd) {
  char b[32];
  sb_printf(sb, "%s %s", effort_days_str(cd, b, sizeof b), report_l(zh, "d", "人日"));
}

static void report_md__weeks(StrBuf *sb, int64_t hw) {
  char b[32];
  sb_printf(sb, "%s 周", effort_weeks_str(hw, b, sizeof b));
}

static void report_md__loc(StrBuf *sb, const ReportItem *it) {
  char *l = xasprintf("%s:%u", it->path, it->line);
  report_md__code(sb, l);
  free(l);
}

static void report_md__priority(const Report *r, StrBuf *sb, ReportPriority p, uint64_t phases) {
  sb_puts(sb, report_priority_name(p, r->zh));
  if (p == PRIO_P1) {
    sb_puts(sb, report_l(r->zh, " (", "（"));
    report_phase_list(r, phases, sb);
    sb_puts(sb, report_l(r->zh, ")", "）"));
  }
}

static void report_md__label(StrBuf *sb, const ReportGroup *g) {
  if (g->label_is_code) report_md__code(sb, g->label);
  else report_md__cell(sb, g->label);
}

/* A matrix row that costs nothing and blocks nothing is folded into one
 * line under the table (compatible packages, what transfer_to_npu does). */
static bool report_md__folded(const ReportGroup *g) {
  return g->centidays == 0 && !g->blocker;
}

/* ---------------------------------------------------------------------------
 * Report_md - Private: sections
 * ------------------------------------------------------------------------- */

/* "- Effort drivers: attention rewrite 3 d (5), precision review 3.25 d
 * (13), validation runs 1.5 d": the three largest effort lines. */
static void report_md__drivers(const Report *r, StrBuf *sb) {
  bool used[EFFORT__COUNT] = {0};
  size_t shown = 0;
  for (int round = 0; round < 3; round++) {
    size_t best = EFFORT__COUNT;
    for (size_t k = 0; k < EFFORT__COUNT; k++)
      if (!used[k] && r->effort.lines[k].centidays > 0 &&
          (best == EFFORT__COUNT || r->effort.lines[k].centidays > r->effort.lines[best].centidays))
        best = k;
    if (best == EFFORT__COUNT) break;
    used[best] = true;
    const EffortRate *rt = effort_rate((EffortKind)best);
    char b[32];
    sb_puts(sb, shown++ ? ", " : kb_text(KBT_EFFORT_DRIVERS, r->zh));
    sb_printf(sb, "%s %s %s (%zu)", report_l(r->zh, rt->label_en, rt->label_zh),
              effort_days_str(r->effort.lines[best].centidays, b, sizeof b), report_l(r->zh, "d", "人日"),
              r->effort.lines[best].units);
  }
  if (r->effort.validation) {
    char b[32];
    sb_puts(sb, shown++ ? ", " : kb_text(KBT_EFFORT_DRIVERS, r->zh));
    sb_printf(sb, report_l(r->zh, "validation runs %s d", "验证运行 %s 人日"), effort_days_str(r->effort.validation, b, sizeof b));
  }
  if (shown) sb_putc(sb, '\n');
}

static void report_md__summary(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "## Executive Summary\n\n", "## 执行摘要\n\n"));
  if (zh) sb_printf(sb, "- 总体可行性：%s\n", verdict_zh(r->verdict));
  else sb_printf(sb, "- Overall feasibility: %s (%s)\n", verdict_zh(r->verdict), verdict_en(r->verdict));
  char b[32], b2[32];
  if (zh) sb_printf(sb, "- 预估工作量：%s 周（%s 人日）\n", effort_weeks_str(r->half_weeks, b, sizeof b),
                    effort_days_str(r->effort.total, b2, sizeof b2));
  else {
    sb_puts(sb, "- Estimated effort: ");
    report_md__weeks(sb, r->half_weeks);
    sb_printf(sb, " (weeks); %s person-days\n", effort_days_str(r->effort.total, b, sizeof b));
  }
  {
    int64_t lo, hi;
    effort_range(r->effort.total, &lo, &hi);
    char l[32], h[32];
    sb_printf(sb, kb_text(KBT_EFFORT_RANGE, zh), effort_weeks_str(effort_half_weeks(lo), l, sizeof l),
              effort_weeks_str(effort_half_weeks(hi), h, sizeof h));
    report_md__drivers(r, sb);
  }
  sb_puts(sb, report_l(zh, "- Blockers: ", "- 阻塞项："));
  if (!r->blockers.len) sb_puts(sb, report_l(zh, "none", "无"));
  /* each blocking construct once (an import and its call are two rules) */
  size_t max = 8, shown = 0, distinct = 0;
  for (size_t i = 0; i < r->blockers.len; i++) {
    const ReportGroup *g = &r->groups.items[r->blockers.items[i]];
    bool dup = false;
    for (size_t j = 0; j < i && !dup; j++) dup = strcmp(r->groups.items[r->blockers.items[j]].label, g->label) == 0;
    if (dup) continue;
    distinct++;
    if (shown == max) continue;
    if (shown++) sb_puts(sb, report_l(zh, "; ", "；"));
    report_md__label(sb, g);
    sb_puts(sb, " (");
    report_md__loc(sb, report_group_site(r, g));
    sb_puts(sb, ")");
  }
  if (distinct > shown)
    sb_printf(sb, report_l(zh, "; and %zu more (see Detailed Findings)", "；另有 %zu 项（见详细发现）"), distinct - shown);
  sb_putc(sb, '\n');
  for (size_t i = 0; i < r->verdict_reasons.len; i++) {
    sb_puts(sb, report_l(zh, "- Why: ", "- 判定依据："));
    report_md__text(sb, r->verdict_reasons.items[i]);
    sb_putc(sb, '\n');
  }
  sb_puts(sb, report_l(zh, "- Task phases: ", "- 任务阶段："));
  report_phase_list(r, r->phases.len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r->phases.len) - 1), sb);
  sb_printf(sb, report_l(zh, " (P0: %zu findings needed by every phase; P1: %zu needed by some; not involved: %zu)\n",
                         "（P0：%zu 个发现为所有阶段所需；P1：%zu 个为部分阶段所需；不涉及：%zu 个）\n"),
            r->n_p0, r->n_p1, r->n_none);
  sb_puts(sb, report_l(zh, "- Recommended route: ", "- 推荐路线："));
  sb_puts(sb, report_route_name(r->route, zh));
  sb_putc(sb, '\n');
  if (r->route_reasons.len) {
    sb_puts(sb, kb_text(KBT_ROUTE_WHY, zh));
    report_md__text(sb, r->route_reasons.items[0]);
    sb_putc(sb, '\n');
  }
  sb_printf(sb,
            report_l(zh, "- Scope: %zu files (%zu lines), %zu findings: %zu errors, %zu warnings, %zu info, %zu hints\n",
                     "- 范围：%zu 个文件（%zu 行），%zu 个发现：%zu 个错误、%zu 个警告、%zu 个提示信息、%zu 个建议\n"),
            r->n_files, r->n_lines, r->items.len, r->by_severity[SEV_ERROR], r->by_severity[SEV_WARNING],
            r->by_severity[SEV_INFO], r->by_severity[SEV_HINT]);
  if (r->n_test_findings)
    sb_printf(sb, report_l(zh, "- Test and benchmark code: %zu findings, not listed (tests/, benchmarks/, test_* functions, self-test blocks)\n",
                           "- 测试与基准代码：%zu 个发现，未列出（tests/、benchmarks/、test_* 函数、自测代码块）\n"),
              r->n_test_findings);
  sb_printf(sb, report_l(zh, "- Target: Atlas %s, CANN %s, torch %s + torch_npu %s, mindiesd %s\n",
                         "- 目标环境：Atlas %s，CANN %s，torch %s + torch_npu %s，mindiesd %s\n"),
            r->chip, r->cann, r->torch, r->torch_npu,
            r->mindiesd ? report_l(zh, "available", "可用") : report_l(zh, "not available", "不可用"));
  sb_putc(sb, '\n');
}

/* A phase's entries, one line per reason they are in it, at most 6 named
 * per line. */
static void report_md__entries_by_how(StrBuf *sb, const ReportPhase *ph, bool zh) {
  for (size_t e = 0; e < ph->entries.len && e < ph->how.len; e++) {
    bool seen = false;
    for (size_t o = 0; o < e && !seen; o++) seen = strcmp(ph->how.items[o], ph->how.items[e]) == 0;
    if (seen) continue;
    sb_puts(sb, "  - ");
    report_md__text(sb, ph->how.items[e]);
    sb_puts(sb, report_l(zh, ": ", "："));
    size_t shown = 0, total = 0;
    for (size_t k = e; k < ph->entries.len && k < ph->how.len; k++) {
      if (strcmp(ph->how.items[k], ph->how.items[e]) != 0) continue;
      total++;
      if (shown == 6) continue;
      if (shown++) sb_puts(sb, ", ");
      report_md__code(sb, ph->entries.items[k]);
    }
    if (total > shown) sb_printf(sb, report_l(zh, " and %zu more", " 等另外 %zu 个"), total - shown);
    sb_putc(sb, '\n');
  }
}

static void report_md__matrix(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "## Dependency Matrix (per task phase)\n\n", "## 依赖矩阵（按任务阶段）\n\n"));
  sb_puts(sb, report_l(zh, "| Dependency |", "| 依赖 |"));
  for (size_t p = 0; p < r->phases.len; p++) {
    sb_putc(sb, ' ');
    report_md__text(sb, r->phases.items[p].name);
    sb_puts(sb, " |");
  }
  sb_puts(sb, report_l(zh, " Replacement | Effort |\n|---|", " 替代方案 | 工作量 |\n|---|"));
  for (size_t p = 0; p < r->phases.len; p++) sb_puts(sb, ":---:|");
  sb_puts(sb, "---|---:|\n");
  if (!r->groups.len) {
    sb_puts(sb, report_l(zh, "| no CUDA dependency found |", "| 未发现 CUDA 依赖 |"));
    for (size_t p = 0; p < r->phases.len; p++) sb_puts(sb, " — |");
    sb_puts(sb, " — | — |\n");
  }
  size_t folded = 0;
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    if (report_md__folded(g)) {
      folded++;
      continue;
    }
    sb_puts(sb, "| ");
    report_md__label(sb, g);
    sb_printf(sb, " [%s] · %s", g->rule->code, report_priority_name(g->prio, zh));
    if (g->items.len > 1) sb_printf(sb, report_l(zh, " · %zu sites", " · %zu 处"), g->items.len);
    sb_puts(sb, " |");
    for (size_t p = 0; p < r->phases.len; p++) sb_puts(sb, (g->phases & ((uint64_t)1 << p)) ? " ✔ |" : " — |");
    sb_putc(sb, ' ');
    report_md__replacement(r, sb, g->replacement);
    sb_puts(sb, " | ");
    report_md__days(sb, zh, g->centidays);
    sb_puts(sb, " |\n");
  }
  if (folded) {
    sb_putc(sb, '\n');
    sb_printf(sb, kb_text(KBT_FOLDED_ROWS, zh), folded);
    size_t shown = 0;
    for (size_t gi = 0; gi < r->groups.len; gi++) {
      const ReportGroup *g = &r->groups.items[gi];
      if (!report_md__folded(g)) continue;
      if (shown == 12) {
        sb_printf(sb, report_l(zh, " and %zu more", " 等另外 %zu 项"), folded - shown);
        break;
      }
      if (shown++) sb_puts(sb, ", ");
      report_md__label(sb, g);
    }
    sb_puts(sb, ".\n");
  }
  sb_putc(sb, '\n');
  sb_puts(sb, report_l(zh, "✔ = the phase reaches this dependency through its entry points and imports. P0 = needed by every "
                           "phase, P1 = needed by some, not involved = needed by none.\n\n",
                       "✔ = 该阶段经由入口与导入关系会用到此依赖。P0 = 所有阶段都需要，P1 = 部分阶段需要，不涉及 = 没有阶段需要。\n\n"));

  sb_puts(sb, report_l(zh, "### Task Phases and Entry Points\n\n", "### 任务阶段与入口\n\n"));
  if (r->implicit_phase)
    sb_puts(sb, report_l(zh, "No entry point was found (no `__main__` guard, console script or launch script), so the whole "
                             "project is assessed as one phase.\n\n",
                         "未找到入口（无 `__main__` 判断、控制台脚本或启动脚本），因此整个项目按一个阶段评估。\n\n"));
  if (!r->implicit_phase) sb_printf(sb, "%s\n\n", kb_text(KBT_PHASES_HOW, zh));
  if (r->library) sb_printf(sb, "%s.\n\n", kb_text(KBT_PHASE_API, zh));
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    sb_printf(sb, "- **%s**", ph->name);
    sb_printf(sb, report_l(zh, " (reaches %zu files", "（到达 %zu 个文件"), ph->n_reached);
    if (ph->multi_device) sb_printf(sb, "%s%s", report_l(zh, "; ", "；"), kb_text(KBT_PHASE_MULTI, zh));
    sb_puts(sb, report_l(zh, ")", "）"));
    sb_putc(sb, '\n');
    report_md__entries_by_how(sb, ph, zh);
    if (ph->tasks.len) {
      StrBuf t;
      sb_init(&t);
      for (size_t k = 0; k < ph->tasks.len; k++) sb_printf(&t, "%s`%s`", k ? ", " : "", ph->tasks.items[k]);
      char n[16];
      snprintf(n, sizeof n, "%zu", ph->tasks.len);
      sb_puts(sb, "  - ");
      sb_printf(sb, kb_text(KBT_PHASE_TASKS, zh), n, t.data ? t.data : "");
      sb_putc(sb, '\n');
      sb_free(&t);
    }
  }
  if (r->tooling.len) {
    sb_printf(sb, "- %s%s", kb_text(KBT_TOOLING, zh), report_l(zh, ": ", "："));
    for (size_t t = 0; t < r->tooling.len; t++) {
      if (t) sb_puts(sb, "; ");
      if (t == 12) {
        sb_printf(sb, report_l(zh, "and %zu more", "等另外 %zu 个"), r->tooling.len - t);
        break;
      }
      report_md__text(sb, r->tooling.items[t]);
    }
    sb_putc(sb, '\n');
  }
  sb_putc(sb, '\n');

  sb_puts(sb, report_l(zh, "### Minimal Migration Set per Phase\n\n", "### 各阶段最小迁移集\n\n"));
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    char b[32];
    sb_printf(sb, report_l(zh, "**%s**: %zu items in %zu files, %s person-days (", "**%s**：%zu 项，涉及 %zu 个文件，%s 人日（"),
              ph->name, ph->groups.len, ph->files.len, effort_days_str(ph->effort.total, b, sizeof b));
    report_md__weeks(sb, ph->half_weeks);
    sb_puts(sb, report_l(zh, "), including one validation run.\n\n", "），含一次验证运行。\n\n"));
    if (ph->files.len) {
      sb_puts(sb, report_l(zh, "- Files: ", "- 文件："));
      for (size_t k = 0; k < ph->files.len; k++) {
        if (k) sb_puts(sb, ", ");
        size_t f = ph->files.items[k], cnt = 0;
        const char *path = NULL;
        for (size_t i = 0; i < r->items.len; i++)
          if (r->items.items[i].file == f && (r->items.items[i].phases & ((uint64_t)1 << p))) {
            cnt++;
            path = r->items.items[i].path;
          }
        report_md__code(sb, path);
        sb_printf(sb, " (%zu)", cnt);
      }
      sb_putc(sb, '\n');
      sb_puts(sb, report_l(zh, "- Items: ", "- 事项："));
      for (size_t k = 0; k < ph->groups.len; k++) {
        const ReportGroup *g = &r->groups.items[ph->groups.items[k]];
        if (k) sb_puts(sb, ", ");
        report_md__label(sb, g);
        sb_printf(sb, " [%s] (%s)", g->rule->code, report_priority_name(g->prio, zh));
      }
      sb_puts(sb, "\n\n");
    } else {
      sb_puts(sb, report_l(zh, "- Nothing to change.\n\n", "- 无需修改。\n\n"));
    }
  }
  char b1[32], b2[32];
  sb_printf(sb, report_l(zh, "Full migration (every phase): %s person-days → ", "完整迁移（所有阶段）：%s 人日 → "),
            effort_days_str(r->effort.total, b1, sizeof b1));
  report_md__weeks(sb, r->half_weeks);
  sb_printf(sb, report_l(zh, " (weeks). Not involved (optional): %s person-days.\n\n", "。不涉及部分（可选）：%s 人日。\n\n"),
            effort_days_str(r->optional.total, b2, sizeof b2));
}

/* Domain 4's kernel inventory: one row per family. */
static void report_md__inventory(const Report *r, StrBuf *sb) {
  if (!r->families.len) return;
  bool zh = r->zh;
  sb_printf(sb, "%s\n\n%s", kb_text(KBT_INVENTORY_TITLE, zh), kb_text(KBT_INVENTORY_HEAD, zh));
  for (size_t k = 0; k < r->families.len; k++) {
    const ReportFamily *f = &r->families.items[k];
    const ReportGroup *g = &r->groups.items[f->group];
    sb_puts(sb, "| ");
    report_md__code(sb, f->key);
    sb_puts(sb, " | ");
    for (size_t i = 0; i < f->kernels.len && i < 4; i++) {
      if (i) sb_puts(sb, ", ");
      report_md__code(sb, f->kernels.items[i]);
    }
    if (f->kernels.len > 4) sb_printf(sb, " +%zu", f->kernels.len - 4);
    sb_printf(sb, " | %zu | %u | ", f->inst_files, f->lines);
    report_md__text(sb, f->what ? f->what : "—");
    sb_puts(sb, " | ");
    report_md__text(sb, f->op ? f->op : kb_text(KBT_INVENTORY_REWRITE, zh));
    sb_puts(sb, " | ");
    report_md__priority(r, sb, g->prio, g->phases);
    sb_puts(sb, " |\n");
  }
  sb_putc(sb, '\n');
}

static void report_md__findings_table(const Report *r, StrBuf *sb, int domain) {
  bool zh = r->zh;
  size_t n = 0;
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    bool mine = domain == 8 ? it->domain > 7 : it->domain == domain;
    if (!mine) continue;
    if (n++ == 0)
      sb_puts(sb, report_l(zh, "| Location | Rule | Finding | Replacement | Priority |\n|---|---|---|---|---|\n",
                           "| 位置 | 规则 | 发现 | 替代方案 | 优先级 |\n|---|---|---|---|---|\n"));
    const Finding *f = it->f;
    sb_puts(sb, "| ");
    report_md__loc(sb, it);
    sb_printf(sb, " | %s | ", f->rule->code);
    report_md__text(sb, zh && f->message_zh ? f->message_zh : f->message);
    if (f->guarded) sb_puts(sb, report_l(zh, " (guarded)", "（有回退）"));
    if (f->transfer_covered) sb_puts(sb, report_l(zh, " (handled by transfer_to_npu)", "（transfer_to_npu 已覆盖）"));
    if (f->inference_only) sb_puts(sb, report_l(zh, " (inference-only code)", "（仅推理代码）"));
    if (f->detail && *f->detail) {
      sb_puts(sb, " — ");
      report_md__cell(sb, f->detail);
    }
    sb_puts(sb, " | ");
    report_md__replacement(r, sb, f->replacement);
    sb_puts(sb, " | ");
    report_md__priority(r, sb, it->prio, it->phases);
    sb_puts(sb, " |\n");
  }
  if (!n) sb_puts(sb, report_l(zh, "No findings.\n", "无发现。\n"));
  sb_putc(sb, '\n');
}

static void report_md__compat(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "Dependency compatibility matrix (compatible / needs replacement / unsupported / not involved):\n\n",
                       "依赖兼容性矩阵（兼容 / 需替换 / 不支持 / 不涉及）：\n\n"));
  if (!r->compat.len) {
    sb_puts(sb, report_l(zh, "No NVIDIA-specific dependency is declared.\n\n", "未声明 NVIDIA 专属依赖。\n\n"));
    return;
  }
  sb_puts(sb, report_l(zh, "| Dependency | Declared in | Status | Phases | Replacement |\n|---|---|---|---|---|\n",
                       "| 依赖 | 声明位置 | 状态 | 阶段 | 替代方案 |\n|---|---|---|---|---|\n"));
  for (size_t i = 0; i < r->compat.len; i++) {
    const ReportCompat *c = &r->compat.items[i];
    sb_puts(sb, "| ");
    report_md__code(sb, c->package);
    sb_puts(sb, " | ");
    report_md__code(sb, c->declared);
    sb_printf(sb, " | %s", report_compat_name(c->status, zh));
    if (c->status == COMPAT_NOT_INVOLVED && c->declared_status != COMPAT_NOT_INVOLVED)
      sb_printf(sb, report_l(zh, " (%s if used)", "（若使用则%s）"), report_compat_name(c->declared_status, zh));
    sb_puts(sb, " | ");
    report_md__priority(r, sb, c->prio, c->phases);
    sb_puts(sb, " | ");
    report_md__replacement(r, sb, c->replacement);
    sb_puts(sb, " |\n");
  }
  sb_putc(sb, '\n');
}

static void report_md__classes(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "### CUDA Dependency Classes and Recommended Route\n\n", "### CUDA 依赖分类与推荐路线\n\n"));
  sb_puts(sb, report_l(zh, "| Class | Findings | On task paths | Matrix rows |\n|---|---:|---:|---:|\n",
                       "| 类别 | 发现 | 位于任务路径 | 矩阵行 |\n|---|---:|---:|---:|\n"));
  for (int c = DEP_CLASS_FRAMEWORK; c <= DEP_CLASS_KERNEL; c++) {
    const ReportClassCount *k = &r->classes[c];
    sb_printf(sb, "| %s | %zu | %zu | %zu |\n", report_class_name((DepClass)c, zh), k->findings, k->involved, k->groups);
  }
  if (r->classes[DEP_CLASS_NONE].findings)
    sb_printf(sb, "| %s | %zu | %zu | %zu |\n", report_class_name(DEP_CLASS_NONE, zh), r->classes[0].findings,
              r->classes[0].involved, r->classes[0].groups);
  sb_printf(sb, report_l(zh, "\n**Recommended route: %s**\n\n", "\n**推荐路线：%s**\n\n"), report_route_name(r->route, zh));
  for (size_t i = 0; i < r->route_reasons.len; i++) {
    sb_puts(sb, "- ");
    report_md__text(sb, r->route_reasons.items[i]);
    sb_putc(sb, '\n');
  }
  sb_puts(sb, report_l(zh, "\nRoutes: A = framework-level (low cost, most training and inference apps); B = operator "
                           "rewriting (medium-high, custom kernels); C = dual-stack coexistence (medium, transition and "
                           "fallback).\n\n",
                       "\n路线：A = 框架层迁移（成本低，适用于绝大多数训练/推理应用）；B = 算子重写（成本中高，适用于自定义内核）；"
                       "C = 双栈共存（成本中等，用于过渡与容灾）。\n\n"));
}

static void report_md__blast(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "### Blast Radius of Blockers\n\n", "### 阻塞项影响范围\n\n"));
  if (!r->blockers.len) {
    sb_puts(sb, report_l(zh, "No blockers.\n\n", "无阻塞项。\n\n"));
    return;
  }
  for (size_t b = 0; b < r->blockers.len; b++) {
    size_t gi = r->blockers.items[b];
    const ReportGroup *g = &r->groups.items[gi];
    sb_puts(sb, "- ");
    report_md__label(sb, g);
    sb_printf(sb, " [%s] ", g->rule->code);
    sb_puts(sb, report_l(zh, "at ", "位于 "));
    for (size_t k = 0; k < g->items.len && k < 5; k++) {
      if (k) sb_puts(sb, ", ");
      report_md__loc(sb, &r->items.items[g->items.items[k]]);
    }
    if (g->items.len > 5) sb_printf(sb, report_l(zh, " and %zu more", " 等 %zu 处"), g->items.len - 5);
    sb_putc(sb, '\n');
    const ReportBlast *bl = NULL;
    for (size_t x = 0; x < r->blast.len; x++)
      if (r->blast.items[x].group == gi) bl = &r->blast.items[x];
    if (!bl || !bl->wrappers.len) {
      sb_puts(sb, report_l(zh, "  - no project function wraps it (native, configuration or module-level code)\n",
                           "  - 没有项目函数封装它（原生代码、配置或模块级代码）\n"));
      continue;
    }
    for (size_t w = 0; w < bl->wrappers.len; w++) {
      const ReportWrapper *wr = &bl->wrappers.items[w];
      char *loc = xasprintf("%s:%u", wr->path, wr->line);
      sb_puts(sb, report_l(zh, "  - wrapped by ", "  - 封装函数 "));
      report_md__code(sb, wr->symbol);
      sb_puts(sb, " (");
      report_md__code(sb, loc);
      sb_puts(sb, report_l(zh, "); reached from: ", ")；调用位置："));
      free(loc);
      if (!wr->callers.len) sb_puts(sb, report_l(zh, "no call site found", "未找到调用点"));
      for (size_t c = 0; c < wr->callers.len; c++) {
        const ReportSite *s = &wr->callers.items[c];
        if (c) sb_puts(sb, ", ");
        char *sl = xasprintf("%s:%u", s->path, s->line);
        report_md__code(sb, sl);
        free(sl);
        if (s->function) {
          sb_puts(sb, report_l(zh, " in ", " 于 "));
          report_md__code(sb, s->function);
        }
        if (s->phases) {
          sb_puts(sb, report_l(zh, " (", "（"));
          report_phase_list(r, s->phases, sb);
          sb_puts(sb, report_l(zh, ")", "）"));
        }
      }
      if (wr->more) sb_printf(sb, report_l(zh, " and %zu more", " 等另外 %zu 处"), wr->more);
      sb_putc(sb, '\n');
    }
  }
  sb_putc(sb, '\n');
}

static void report_md__roadmap(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "## Migration Roadmap\n\n", "## 迁移路线图\n\n"));
  for (size_t i = 0; i < r->roadmap.len; i++) {
    const ReportStep *s = &r->roadmap.items[i];
    sb_printf(sb, "%zu. **%s**\n", i + 1, s->title);
    for (size_t k = 0; k < s->lines.len; k++) {
      const ReportLine *l = &s->lines.items[k];
      sb_puts(sb, "   - ");
      report_md__text(sb, l->text);
      if (l->items.len) {
        sb_puts(sb, " (");
        for (size_t j = 0; j < l->items.len; j++) {
          if (j) sb_puts(sb, ", ");
          report_md__loc(sb, &r->items.items[l->items.items[j]]);
        }
        sb_puts(sb, ")");
      }
      sb_putc(sb, '\n');
    }
  }
  sb_putc(sb, '\n');
}

static void report_md__risks(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "## Risk Matrix\n\n", "## 风险矩阵\n\n"));
  sb_puts(sb, report_l(zh, "| Risk | Likelihood | Impact | Mitigation |\n|---|---|---|---|\n",
                       "| 风险 | 可能性 | 影响 | 缓解措施 |\n|---|---|---|---|\n"));
  if (!r->risks.len) sb_puts(sb, report_l(zh, "| no risk derived from findings | — | — | — |\n", "| 未从发现中推导出风险 | — | — | — |\n"));
  for (size_t i = 0; i < r->risks.len; i++) {
    const ReportRisk *k = &r->risks.items[i];
    sb_puts(sb, "| ");
    report_md__text(sb, k->risk);
    sb_printf(sb, " | %s | %s | ", report_level_name(k->likelihood, zh), report_level_name(k->impact, zh));
    report_md__text(sb, k->mitigation);
    sb_puts(sb, " |\n");
  }
  sb_putc(sb, '\n');
}

static void report_md__checklist(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_puts(sb, report_l(zh, "## Acceptance Checklist\n\n", "## 验收清单\n\n"));
  for (size_t i = 0; i < r->checklist.len; i++) {
    const ReportCheck *c = &r->checklist.items[i];
    sb_printf(sb, "- [ ] **%s**: ", c->area);
    report_md__text(sb, c->item);
    sb_puts(sb, " — ");
    report_md__text(sb, c->threshold);
    sb_putc(sb, '\n');
  }
  sb_putc(sb, '\n');
}


static size_t report_md__n_entries(const Report *r) {
  size_t n = 0;
  for (size_t p = 0; p < r->phases.len; p++) n += r->phases.items[p].entries.len;
  return n;
}

static void report_md__effort(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  char b1[32], b2[32], b3[32];
  sb_puts(sb, report_l(zh, "## Effort Computation\n\n", "## 工作量计算\n\n"));
  sb_printf(sb, report_l(zh, "Person-days per unit from the effort table (docs/report.md); a guarded finding counts %d%%. "
                             "Only findings that some phase reaches are counted.\n\n",
                         "按工作量表（docs/report.md）的单位人日计算；有回退的发现按 %d%% 计。只计入某个阶段会用到的发现。\n\n"),
            EFFORT_GUARDED_PERCENT);
  sb_puts(sb, report_l(zh, "| Item | Unit | Rate (d) | Count | Person-days |\n|---|---|---:|---:|---:|\n",
                       "| 项目 | 单位 | 单价（人日） | 数量 | 人日 |\n|---|---|---:|---:|---:|\n"));
  size_t nrates;
  const EffortRate *rates = effort_rates(&nrates);
  for (size_t k = 0; k < nrates; k++) {
    const EffortLine *l = &r->effort.lines[k];
    const EffortRate *rt = &rates[k];
    if (rt->unit == EFFORT_UNIT_NONE || l->units == 0) continue;
    sb_printf(sb, "| %s | %s | %s", report_l(zh, rt->label_en, rt->label_zh), report_l(zh, rt->unit_en, rt->unit_zh),
              effort_days_str(rt->centidays, b1, sizeof b1));
    if (rt->unit == EFFORT_UNIT_KERNEL) sb_printf(sb, " + %s/100", effort_days_str(rt->centidays_per_100, b2, sizeof b2));
    sb_printf(sb, " | %zu", l->units);
    if (l->guarded_units) sb_printf(sb, report_l(zh, " (%zu guarded)", "（%zu 个有回退）"), l->guarded_units);
    if (rt->unit == EFFORT_UNIT_KERNEL) sb_printf(sb, report_l(zh, ", %u lines", "，%u 行"), l->lines);
    sb_printf(sb, " | %s |\n", effort_days_str(l->centidays, b3, sizeof b3));
  }
  size_t transfer = 0;
  for (size_t k = 0; k < nrates; k++) transfer += r->effort.lines[k].transfer_units;
  if (transfer) sb_printf(sb, "| %s | %s | 0 | %zu | 0 |\n", kb_text(KBT_TRANSFER_ROW, zh), report_l(zh, "per occurrence", "每处"), transfer);
  sb_printf(sb, report_l(zh, "| Validation run | per phase | %s | %zu | %s |\n", "| 验证运行 | 每个阶段 | %s | %zu | %s |\n"),
            effort_days_str(EFFORT_PHASE_VALIDATION_CD, b1, sizeof b1), r->effort.n_phases,
            effort_days_str(r->effort.validation, b2, sizeof b2));
  sb_printf(sb, report_l(zh, "| Environment setup (CANN, torch_npu) | once | %s | %d | %s |\n",
                         "| 环境搭建（CANN、torch_npu） | 一次 | %s | %d | %s |\n"),
            effort_days_str(EFFORT_ENVIRONMENT_CD, b1, sizeof b1), r->effort.environment ? 1 : 0,
            effort_days_str(r->effort.environment, b2, sizeof b2));
  sb_printf(sb, report_l(zh, "| **Total** | | | | **%s** |\n\n", "| **合计** | | | | **%s** |\n\n"),
            effort_days_str(r->effort.total, b1, sizeof b1));
  sb_printf(sb, report_l(zh, "%s person-days ÷ 5 days per week, rounded up to the next half week = ",
                         "%s 人日 ÷ 每周 5 天，向上取整到半周 = "),
            effort_days_str(r->effort.total, b1, sizeof b1));
  report_md__weeks(sb, r->half_weeks);
  sb_puts(sb, report_l(zh, " (weeks).", "。"));
  if (r->optional.total)
    sb_printf(sb, report_l(zh, " Findings no phase reaches would add %s person-days.", "任何阶段都不涉及的发现另需 %s 人日。"),
              effort_days_str(r->optional.total, b2, sizeof b2));
  sb_puts(sb, "\n\n");
  {
    int64_t lo, hi;
    effort_range(r->effort.total, &lo, &hi);
    sb_printf(sb, kb_text(KBT_CALIBRATION, zh), EFFORT_RANGE_LOW_PERCENT, EFFORT_RANGE_HIGH_PERCENT);
    sb_printf(sb, report_l(zh, " Range: %s–%s person-days.\n\n", "区间：%s–%s 人日。\n\n"), effort_days_str(lo, b1, sizeof b1),
              effort_days_str(hi, b2, sizeof b2));
  }
  sb_printf(sb, report_l(zh, "Verdict %s: ", "判定 %s："), verdict_zh(r->verdict));
  for (size_t i = 0; i < r->verdict_reasons.len; i++) {
    const char *t = r->verdict_reasons.items[i];
    report_md__text(sb, t);
    size_t tl = strlen(t);
    bool stop = tl && (t[tl - 1] == '.' || (tl >= 3 && strcmp(t + tl - 3, "。") == 0));
    sb_puts(sb, stop ? " " : report_l(zh, ". ", "。"));
  }
  sb_printf(sb, report_l(zh, "Phases: %zu, from %zu entry points (%zu tooling entries excluded), see Task Phases.\n\n",
                         "阶段：%zu 个，来自 %zu 个入口（排除 %zu 个工具脚本），见任务阶段一节。\n\n"),
            r->phases.len, report_md__n_entries(r), r->tooling.len);
  /* the pie: involved findings per domain, then the fixed costs */
  sb_printf(sb, "```mermaid\npie title %s\n", report_l(zh, "Effort by domain (person-days)", "各域工作量（人日）"));
  for (int d = 1; d < 8; d++)
    if (r->domain_cd[d] > 0)
      sb_printf(sb, "    \"%s\" : %s\n", report_domain_short(d, zh), effort_days_str(r->domain_cd[d], b1, sizeof b1));
  if (r->domain_cd[0] > 0)
    sb_printf(sb, "    \"%s\" : %s\n", report_domain_short(0, zh), effort_days_str(r->domain_cd[0], b1, sizeof b1));
  int64_t fixed = r->effort.validation + r->effort.environment;
  if (fixed > 0)
    sb_printf(sb, "    \"%s\" : %s\n", report_l(zh, "Validation and setup", "验证与环境"), effort_days_str(fixed, b1, sizeof b1));
  sb_puts(sb, "```\n\n");
}

/* One table cell (bytes [s, e)) cut to REPORT_CELL_MAX bytes at a UTF-8
 * boundary, with "..." and a closing backtick when the cut opened a span. */
static void report_md__put_cell(StrBuf *out, const char *s, const char *e) {
  size_t n = (size_t)(e - s);
  if (n <= REPORT_CELL_MAX) {
    sb_append(out, s, n);
    return;
  }
  size_t cut = REPORT_CELL_MAX - 5;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
  size_t ticks = 0;
  for (size_t i = 0; i < cut; i++) ticks += s[i] == '`';
  sb_append(out, s, cut);
  sb_puts(out, ticks % 2 ? "...` " : "... ");
}

/* No table cell longer than REPORT_CELL_MAX bytes: table rows (outside
 * code fences) are rewritten cell by cell; "\|" is not a cell border. */
static void report_md__cap_cells(StrBuf *sb) {
  StrBuf out;
  sb_init(&out);
  bool fence = false;
  const char *p = sb->data ? sb->data : "", *end = p + sb->len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    if ((size_t)(le - p) >= 3 && strncmp(p, "```", 3) == 0) fence = !fence;
    if (fence || *p != '|' || (size_t)(le - p) <= REPORT_CELL_MAX) {
      sb_append(&out, p, (size_t)(le - p));
    } else {
      const char *c = p;
      while (c < le) {
        const char *q = c + 1;
        while (q < le && !(*q == '|' && q[-1] != '\\')) q++;
        sb_putc(&out, '|');
        if (q > c + 1) report_md__put_cell(&out, c + 1, q);
        c = q;
        if (c == le - 1 && *c == '|') {
          sb_putc(&out, '|');
          break;
        }
      }
    }
    if (nl) sb_putc(&out, '\n');
    p = le + 1;
  }
  sb_free(sb);
  *sb = out;
}

char *report_markdown(const Report *r, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  bool zh = r->zh;
  sb_puts(&sb, "# ");
  report_md__text(&sb, r->project);
  sb_puts(&sb, report_l(zh, " Ascend NPU Migration Assessment\n\n", " 昇腾 NPU 迁移评估\n\n"));
  report_md__summary(r, &sb);
  report_md__matrix(r, &sb);
  sb_puts(&sb, report_l(zh, "## Detailed Findings (per domain)\n\n", "## 详细发现（按域）\n\n"));
  for (int d = 1; d <= 7; d++) {
    sb_printf(&sb, "### %s\n\n", report_domain_title(d, zh));
    if (d == 1) report_md__compat(r, &sb);
    if (d == 4) report_md__inventory(r, &sb);
    report_md__findings_table(r, &sb, d);
  }
  bool other = false;
  for (size_t i = 0; i < r->items.len; i++)
    if (r->items.items[i].domain > 7) other = true;
  if (other) {
    sb_printf(&sb, "### %s\n\n", report_domain_title(8, zh));
    report_md__findings_table(r, &sb, 8);
  }
  report_md__classes(r, &sb);
  report_md__blast(r, &sb);
  report_md__roadmap(r, &sb);
  report_md__risks(r, &sb);
  report_md__checklist(r, &sb);
  report_md__effort(r, &sb);
  if (r->notes.len) {
    sb_puts(&sb, report_l(zh, "## Analysis Notes\n\n", "## 分析说明\n\n"));
    for (size_t i = 0; i < r->notes.len; i++) {
      sb_puts(&sb, "- ");
      report_md__text(&sb, r->notes.items[i]);
      sb_putc(&sb, '\n');
    }
    sb_putc(&sb, '\n');
  }
  if (r->patterns.len) {
    sb_printf(&sb, "%s\n\n%s\n\n", kb_text(KBT_APPENDIX_TITLE, zh), kb_text(KBT_APPENDIX_INTRO, zh));
    for (size_t i = 0; i < r->patterns.len; i++) {
      sb_printf(&sb, "**P%zu**\n\n```python\n%s\n```\n\n", i + 1, r->patterns.items[i]);
    }
  }
  report_md__cap_cells(&sb);
  /* one trailing newline */
  while (sb.len >= 2 && sb.data[sb.len - 1] == '\n' && sb.data[sb.len - 2] == '\n') sb.data[--sb.len] = '\0';
  if (len) *len = sb.len;
  return sb_steal(&sb);
}
