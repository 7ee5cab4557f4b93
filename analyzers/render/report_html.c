/* report_html: the report as one self-contained dashboard page: inline CSS
 * (system fonts only, CJK falls back to the system's), overview cards and a
 * findings-by-domain x phase heat map at the top, the charts as inline SVG
 * (effort by kind, effort by domain, effort per phase), a findings table
 * filtered by domain, phase, severity and file with one inline script, a
 * print stylesheet; no external asset, so it can be mailed or archived. It
 * fits a 1280-pixel window: tables have a fixed layout and long code wraps.
 * After the dashboard the sections follow the Markdown report's order. */
#include "analyzers/project/report_priv.h"
#include "analyzers/kb/kb.h"

#include <math.h>
#include <stdlib.h>

static void report_html__esc(StrBuf *sb, const char *s) {
  if (!s) return;
  for (; *s; s++) {
    switch (*s) {
    case '&': sb_puts(sb, "&amp;"); break;
    case '<': sb_puts(sb, "&lt;"); break;
    case '>': sb_puts(sb, "&gt;"); break;
    case '"': sb_puts(sb, "&quot;"); break;
    default: sb_putc(sb, *s);
    }
  }
}

static void report_html__code(StrBuf *sb, const char *s) {
  sb_puts(sb, "<code>");
  report_html__esc(sb, s);
  sb_puts(sb, "</code>");
}

static void report_html__loc(StrBuf *sb, const ReportItem *it) {
  char *l = xasprintf("%s:%u", it->path, it->line);
  report_html__code(sb, l);
  free(l);
}

/* A replacement; a long template by its pattern name (the appendix). */
typedef struct {
  const Report *r;
  StrBuf *sb;
} ReportHtmlRepl;

static void report_html__repl_pattern(void *d, long n) {
  ReportHtmlRepl *h = d;
  sb_printf(h->sb, "<a href=\"#pattern-%ld\">", n);
  sb_printf(h->sb, kb_text(KBT_PATTERN_REF, h->r->zh), n);
  sb_puts(h->sb, "</a>");
}
static void report_html__repl_code(void *d, const char *part) { report_html__code(((ReportHtmlRepl *)d)->sb, part); }
static void report_html__repl_prose(void *d, const char *part) { report_html__esc(((ReportHtmlRepl *)d)->sb, part); }
static void report_html__repl_sep(void *d) { sb_puts(((ReportHtmlRepl *)d)->sb, "; "); }
static void report_html__repl_none(void *d) { sb_puts(((ReportHtmlRepl *)d)->sb, "—"); }

static void report_html__repl(const Report *r, StrBuf *sb, const char *s) {
  static const ReportReplWriter w = {report_html__repl_pattern, report_html__repl_code, report_html__repl_prose,
                                     report_html__repl_sep, report_html__repl_none};
  ReportHtmlRepl h = {r, sb};
  report_write_replacement(r, s, &w, &h);
}

static void report_html__label(StrBuf *sb, const ReportGroup *g) {
  if (g->label_is_code) report_html__code(sb, g->label);
  else report_html__esc(sb, g->label);
}

static const char *const report_html__colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                                  "#edc948", "#b07aa1", "#ff9da7", "#9c755f"};


/* Pie of effort by domain plus the fixed validation/setup share. */
static void report_html__pie(const Report *r, StrBuf *sb) {
  const char *names[10];
  int64_t vals[10];
  size_t n = 0;
  for (int d = 1; d < 8; d++)
    if (r->domain_cd[d] > 0) {
      names[n] = report_domain_short(d, r->zh);
      vals[n++] = r->domain_cd[d];
    }
  if (r->domain_cd[0] > 0) {
    names[n] = report_domain_short(0, r->zh);
    vals[n++] = r->domain_cd[0];
  }
  int64_t fixed = r->effort.validation + r->effort.environment;
  if (fixed > 0) {
    names[n] = report_l(r->zh, "Validation and setup", "验证与环境");
    vals[n++] = fixed;
  }
  int64_t total = 0;
  for (size_t i = 0; i < n; i++) total += vals[i];
  size_t h = n * 22 + 20 > 200 ? n * 22 + 20 : 200;
  sb_printf(sb, "<svg class=\"chart\" role=\"img\" aria-label=\"%s\" width=\"460\" height=\"%zu\" viewBox=\"0 0 460 %zu\">\n",
            report_l(r->zh, "Effort by domain", "各域工作量"), h, h);
  const double cx = 100, cy = 100, rad = 90;
  double angle = -M_PI / 2;
  for (size_t i = 0; i < n && total > 0; i++) {
    double frac = (double)vals[i] / (double)total;
    const char *color = report_html__colors[i % (sizeof report_html__colors / sizeof report_html__colors[0])];
    if (frac >= 0.9999) {
      sb_printf(sb, "  <circle cx=\"%.0f\" cy=\"%.0f\" r=\"%.0f\" fill=\"%s\"/>\n", cx, cy, rad, color);
    } else {
      double a2 = angle + frac * 2 * M_PI;
      sb_printf(sb, "  <path d=\"M%.0f,%.0f L%.2f,%.2f A%.0f,%.0f 0 %d,1 %.2f,%.2f Z\" fill=\"%s\"/>\n", cx, cy,
                cx + rad * cos(angle), cy + rad * sin(angle), rad, rad, frac > 0.5 ? 1 : 0, cx + rad * cos(a2),
                cy + rad * sin(a2), color);
      angle = a2;
    }
  }
  char b[32];
  for (size_t i = 0; i < n; i++) {
    const char *color = report_html__colors[i % (sizeof report_html__colors / sizeof report_html__colors[0])];
    sb_printf(sb, "  <rect x=\"210\" y=\"%zu\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", 10 + i * 22, color);
    sb_printf(sb, "  <text x=\"228\" y=\"%zu\">", 21 + i * 22);
    report_html__esc(sb, names[i]);
    sb_printf(sb, ": %s</text>\n", effort_days_str(vals[i], b, sizeof b));
  }
  sb_puts(sb, "</svg>\n");
}

/* Horizontal bars: person-days per phase (minimal migration set). */
static void report_html__bars(const Report *r, StrBuf *sb) {
  int64_t max = 1;
  for (size_t p = 0; p < r->phases.len; p++)
    if (r->phases.items[p].effort.total > max) max = r->phases.items[p].effort.total;
  size_t h = r->phases.len * 28 + 10;
  sb_printf(sb, "<svg class=\"chart\" role=\"img\" aria-label=\"%s\" width=\"460\" height=\"%zu\" viewBox=\"0 0 460 %zu\">\n",
            report_l(r->zh, "Effort per phase", "各阶段工作量"), h, h);
  char b[32];
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    double w = 260.0 * (double)ph->effort.total / (double)max;
    sb_printf(sb, "  <text x=\"0\" y=\"%zu\">", 22 + p * 28);
    report_html__esc(sb, ph->name);
    sb_puts(sb, "</text>\n");
    sb_printf(sb, "  <rect x=\"120\" y=\"%zu\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>\n", 8 + p * 28, w,
              report_html__colors[p % (sizeof report_html__colors / sizeof report_html__colors[0])]);
    sb_printf(sb, "  <text x=\"%.1f\" y=\"%zu\">%s %s</text>\n", 126 + w, 22 + p * 28,
              effort_days_str(ph->effort.total, b, sizeof b), report_l(r->zh, "d", "人日"));
  }
  sb_puts(sb, "</svg>\n");
}

static const char *report_html__severity(Severity s, bool zh) {
  static const KbText names[] = {KBT_SEV_ERROR, KBT_SEV_WARNING, KBT_SEV_INFO, KBT_SEV_HINT};
  return s >= SEV_ERROR && s <= SEV_HINT ? kb_text(names[s - SEV_ERROR], zh) : severity_name(s);
}

/* One row per finding, with the data the filters read: domain, phases
 * (space-separated indices), severity and file. */
static void report_html__findings(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  sb_printf(sb, "<section id=\"findings\">\n<h3>%s</h3>\n<div class=\"filters\">\n", kb_text(KBT_HTML_FINDINGS, zh));
  sb_printf(sb, "<label>%s <select id=\"f-domain\"><option value=\"\">%s</option>", kb_text(KBT_HTML_DOMAIN, zh),
            kb_text(KBT_HTML_ALL, zh));
  for (int d = 1; d <= 7; d++) {
    sb_printf(sb, "<option value=\"%d\">", d);
    report_html__esc(sb, report_domain_short(d, zh));
    sb_puts(sb, "</option>");
  }
  sb_printf(sb, "</select></label>\n<label>%s <select id=\"f-phase\"><option value=\"\">%s</option>", kb_text(KBT_HTML_PHASE, zh),
            kb_text(KBT_HTML_ALL, zh));
  for (size_t p = 0; p < r->phases.len; p++) {
    sb_printf(sb, "<option value=\"%zu\">", p);
    report_html__esc(sb, r->phases.items[p].name);
    sb_puts(sb, "</option>");
  }
  sb_printf(sb, "<option value=\"none\">%s</option>", report_priority_name(PRIO_NONE, zh));
  sb_printf(sb, "</select></label>\n<label>%s <select id=\"f-severity\"><option value=\"\">%s</option>", kb_text(KBT_HTML_SEVERITY, zh),
            kb_text(KBT_HTML_ALL, zh));
  for (int v = SEV_ERROR; v <= SEV_HINT; v++)
    sb_printf(sb, "<option value=\"%s\">%s</option>", severity_name((Severity)v), report_html__severity((Severity)v, zh));
  sb_printf(sb, "</select></label>\n<label>%s <input id=\"f-file\" type=\"search\"></label>\n", kb_text(KBT_HTML_FILE, zh));
  sb_printf(sb, "<span class=\"count\"><span id=\"f-count\">%zu</span> / %zu</span>\n</div>\n", r->items.len, r->items.len);
  sb_printf(sb, "<table id=\"f-table\"><colgroup><col style=\"width:22%%\"><col style=\"width:7%%\"><col style=\"width:8%%\">"
                "<col style=\"width:38%%\"><col style=\"width:15%%\"><col style=\"width:10%%\"></colgroup>\n"
                "<tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
            report_l(zh, "Location", "位置"), report_l(zh, "Rule", "规则"), kb_text(KBT_HTML_SEVERITY, zh),
            report_l(zh, "Finding", "发现"), report_l(zh, "Replacement", "替代方案"), report_l(zh, "Priority", "优先级"));
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    const Finding *f = it->f;
    sb_printf(sb, "<tr data-domain=\"%d\" data-severity=\"%s\" data-phases=\"", it->domain, severity_name(f->severity));
    bool any = false;
    for (size_t p = 0; p < r->phases.len; p++)
      if (it->phases & ((uint64_t)1 << p)) {
        sb_printf(sb, "%s%zu", any ? " " : "", p);
        any = true;
      }
    if (!any) sb_puts(sb, "none");
    sb_puts(sb, "\" data-file=\"");
    report_html__esc(sb, it->path);
    sb_puts(sb, "\"><td>");
    report_html__loc(sb, it);
    sb_printf(sb, "</td><td>%s</td><td>%s</td><td>", f->rule->code, report_html__severity(f->severity, zh));
    report_html__esc(sb, zh && f->message_zh ? f->message_zh : f->message);
    if (f->guarded) sb_puts(sb, report_l(zh, " <em>(guarded)</em>", " <em>（有回退）</em>"));
    if (f->transfer_covered) sb_puts(sb, report_l(zh, " <em>(handled by transfer_to_npu)</em>", " <em>（transfer_to_npu 已覆盖）</em>"));
    sb_puts(sb, "</td><td>");
    report_html__repl(r, sb, f->replacement);
    sb_printf(sb, "</td><td class=\"p%d\">%s</td></tr>\n", (int)it->prio, report_priority_name(it->prio, zh));
  }
  sb_puts(sb, "</table>\n</section>\n");
}

/* Overview cards: verdict, effort and its range, blockers, findings,
 * phases, route. */
static void report_html__cards(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  char b1[32], b2[32], b3[32], b4[32];
  int64_t lo, hi;
  effort_range(r->effort.total, &lo, &hi);
  sb_puts(sb, "<section id=\"overview\" class=\"cards\">\n");
  sb_printf(sb, "<div class=\"card v%d\"><div class=\"k\">%s</div><div class=\"v\">%s</div><div class=\"s\">%s</div></div>\n",
            (int)r->verdict, report_l(zh, "Overall feasibility", "总体可行性"), verdict_zh(r->verdict),
            zh ? "" : verdict_en(r->verdict));
  sb_printf(sb, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">%s 周</div><div class=\"s\">%s–%s 周 · %s %s</div></div>\n",
            report_l(zh, "Estimated effort", "预估工作量"), effort_weeks_str(r->half_weeks, b1, sizeof b1),
            effort_weeks_str(effort_half_weeks(lo), b2, sizeof b2), effort_weeks_str(effort_half_weeks(hi), b3, sizeof b3),
            effort_days_str(r->effort.total, b4, sizeof b4), report_l(zh, "person-days", "人日"));
  sb_printf(sb, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">%zu</div><div class=\"s\">%s</div></div>\n",
            report_l(zh, "Blockers", "阻塞项"), r->blockers.len, kb_text(KBT_HTML_BLOCKER_NOTE, zh));
  sb_printf(sb, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">%zu</div><div class=\"s\">P0 %zu · P1 %zu · %s %zu</div></div>\n",
            report_l(zh, "Findings", "发现"), r->items.len, r->n_p0, r->n_p1, report_priority_name(PRIO_NONE, zh), r->n_none);
  sb_printf(sb, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">%zu</div><div class=\"s\">", kb_text(KBT_HTML_PHASES, zh),
            r->phases.len);
  report_phase_list(r, r->phases.len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r->phases.len) - 1), sb);
  sb_puts(sb, "</div></div>\n");
  sb_printf(sb, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">%c</div><div class=\"s\">%s</div></div>\n",
            report_l(zh, "Recommended route", "推荐路线"), "ABC"[r->route], report_route_name(r->route, zh));
  sb_puts(sb, "</section>\n");
}

/* Findings per domain x phase, shaded by count. */
static void report_html__heatmap(const Report *r, StrBuf *sb) {
  bool zh = r->zh;
  size_t np = r->phases.len;
  size_t *cnt = xcalloc(8 * (np + 1), sizeof *cnt);
  size_t max = 1;
  for (size_t i = 0; i < r->items.len; i++) {
    const ReportItem *it = &r->items.items[i];
    int d = it->domain >= 1 && it->domain <= 7 ? it->domain : 0;
    bool any = false;
    for (size_t p = 0; p < np; p++)
      if (it->phases & ((uint64_t)1 << p)) {
        any = true;
        if (++cnt[d * (np + 1) + p] > max) max = cnt[d * (np + 1) + p];
      }
    if (!any && ++cnt[d * (np + 1) + np] > max) max = cnt[d * (np + 1) + np];
  }
  sb_printf(sb, "<section id=\"heatmap\">\n<h3>%s</h3>\n<table class=\"heat\"><tr><th>%s</th>", kb_text(KBT_HTML_HEATMAP, zh),
            kb_text(KBT_HTML_DOMAIN, zh));
  for (size_t p = 0; p < np; p++) {
    sb_puts(sb, "<th>");
    report_html__esc(sb, r->phases.items[p].name);
    sb_puts(sb, "</th>");
  }
  sb_printf(sb, "<th>%s</th></tr>\n", report_priority_name(PRIO_NONE, zh));
  for (int d = 1; d <= 7; d++) {
    sb_puts(sb, "<tr><th>");
    report_html__esc(sb, report_domain_short(d, zh));
    sb_puts(sb, "</th>");
    for (size_t p = 0; p <= np; p++) {
      size_t c = cnt[d * (np + 1) + p];
      int alpha = c ? 10 + (int)(80 * c / max) : 0;
      sb_printf(sb, "<td style=\"background:rgba(225,87,89,.%02d)\">%zu</td>", alpha > 99 ? 99 : alpha, c);
    }
    sb_puts(sb, "</tr>\n");
  }
  sb_puts(sb, "</table>\n</section>\n");
  free(cnt);
}

/* Horizontal bars: person-days per effort kind, then the fixed costs. */
static void report_html__effort_bars(const Report *r, StrBuf *sb) {
  const char *names[EFFORT__COUNT + 2];
  int64_t vals[EFFORT__COUNT + 2];
  size_t n = 0;
  for (size_t k = 0; k < EFFORT__COUNT; k++)
    if (r->effort.lines[k].centidays > 0) {
      names[n] = report_l(r->zh, effort_rate((EffortKind)k)->label_en, effort_rate((EffortKind)k)->label_zh);
      vals[n++] = r->effort.lines[k].centidays;
    }
  if (r->effort.validation) {
    names[n] = report_l(r->zh, "Validation runs", "验证运行");
    vals[n++] = r->effort.validation;
  }
  if (r->effort.environment) {
    names[n] = report_l(r->zh, "Environment setup", "环境搭建");
    vals[n++] = r->effort.environment;
  }
  int64_t max = 1;
  for (size_t i = 0; i < n; i++)
    if (vals[i] > max) max = vals[i];
  size_t h = n * 24 + 10;
  sb_printf(sb, "<svg class=\"chart\" role=\"img\" aria-label=\"%s\" width=\"560\" height=\"%zu\" viewBox=\"0 0 560 %zu\">\n",
            kb_text(KBT_HTML_EFFORT, r->zh), h, h);
  char b[32];
  for (size_t i = 0; i < n; i++) {
    double w = 300.0 * (double)vals[i] / (double)max;
    sb_printf(sb, "  <text x=\"0\" y=\"%zu\">", 20 + i * 24);
    report_html__esc(sb, names[i]);
    sb_puts(sb, "</text>\n");
    sb_printf(sb, "  <rect x=\"200\" y=\"%zu\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n", 7 + i * 24, w,
              report_html__colors[i % (sizeof report_html__colors / sizeof report_html__colors[0])]);
    sb_printf(sb, "  <text x=\"%.1f\" y=\"%zu\">%s %s</text>\n", 206 + w, 20 + i * 24, effort_days_str(vals[i], b, sizeof b),
              report_l(r->zh, "d", "人日"));
  }
  sb_puts(sb, "</svg>\n");
}

/* The filters: rows whose data match every chosen value stay visible. */
static const char report_html__script[] =
    "<script>\n"
    "(function(){\n"
    "  var ids=['f-domain','f-phase','f-severity','f-file'];\n"
    "  function apply(){\n"
    "    var d=document.getElementById('f-domain').value, p=document.getElementById('f-phase').value,\n"
    "        s=document.getElementById('f-severity').value, f=document.getElementById('f-file').value.toLowerCase();\n"
    "    var rows=document.querySelectorAll('#f-table tr[data-domain]'), n=0;\n"
    "    for(var i=0;i<rows.length;i++){\n"
    "      var r=rows[i], ok=(!d||r.dataset.domain===d)&&(!s||r.dataset.severity===s)&&\n"
    "        (!p||r.dataset.phases.split(' ').indexOf(p)>=0)&&(!f||r.dataset.file.toLowerCase().indexOf(f)>=0);\n"
    "      r.style.display=ok?'':'none'; if(ok)n++;\n"
    "    }\n"
    "    document.getElementById('f-count').textContent=n;\n"
    "  }\n"
    "  ids.forEach(function(id){var e=document.getElementById(id);e.addEventListener('input',apply);e.addEventListener('change',apply);});\n"
    "})();\n"
    "</script>\n";

char *report_html(const Report *r, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  bool zh = r->zh;
  char b1[32], b2[32];
  sb_printf(&sb, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>", zh ? "zh" : "en");
  report_html__esc(&sb, r->project);
  sb_puts(&sb, report_l(zh, " Ascend NPU Migration Assessment", " 昇腾 NPU 迁移评估"));
  sb_puts(&sb, "</title>\n<style>\n"
               "*{box-sizing:border-box}\n"
               "body{font-family:system-ui,-apple-system,\"Segoe UI\",\"PingFang SC\",\"Hiragino Sans GB\",\"Microsoft YaHei\","
               "\"Noto Sans CJK SC\",sans-serif;max-width:1240px;margin:1em auto;padding:0 16px;color:#222;line-height:1.45}\n"
               "table{border-collapse:collapse;margin:.6em 0 1.2em;width:100%;table-layout:fixed}\n"
               "th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top;font-size:.9em;"
               "overflow-wrap:anywhere;word-break:break-word}\n"
               "th{background:#f3f3f3}\ncode{background:#f5f5f5;padding:0 .2em;border-radius:3px;white-space:pre-wrap;"
               "overflow-wrap:anywhere}\npre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:.5em}\n"
               ".verdict{font-size:1.3em;font-weight:bold}\n.p0{color:#b00020;font-weight:bold}\n.p1{color:#a05a00}\n"
               ".chart{max-width:100%;height:auto}\n.chart text{font-size:12px;fill:#222}\n"
               "h2{border-bottom:2px solid #4e79a7;padding-bottom:.2em}\n"
               ".cards{display:grid;grid-template-columns:repeat(6,minmax(0,1fr));gap:10px;margin:.5em 0 1em}\n"
               ".card{border:1px solid #ccc;border-radius:6px;padding:.5em .7em;background:#fafafa}\n"
               ".card .k{font-size:.8em;color:#555}\n.card .v{font-size:1.6em;font-weight:bold}\n"
               ".card .s{font-size:.78em;color:#555;overflow-wrap:anywhere}\n"
               ".card.v0{border-color:#59a14f}\n.card.v1{border-color:#edc948}\n.card.v2{border-color:#f28e2b}\n"
               ".card.v3{border-color:#e15759}\n"
               ".dash{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}\n"
               ".heat td{text-align:center}\n.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:.4em 0}\n"
               ".filters input{width:14em}\n"
               "@media print{body{max-width:none;margin:0}.filters{display:none}#f-table tr{display:table-row!important}"
               "section,table,svg{break-inside:avoid}a{color:inherit;text-decoration:none}}\n"
               "</style>\n</head>\n<body>\n");
  sb_puts(&sb, "<h1>");
  report_html__esc(&sb, r->project);
  sb_puts(&sb, report_l(zh, " Ascend NPU Migration Assessment", " 昇腾 NPU 迁移评估"));
  sb_puts(&sb, "</h1>\n");

  /* the dashboard: cards, heat map, effort by kind */
  report_html__cards(r, &sb);
  sb_puts(&sb, "<div class=\"dash\">\n");
  report_html__heatmap(r, &sb);
  sb_printf(&sb, "<section id=\"effort\">\n<h3>%s</h3>\n", kb_text(KBT_HTML_EFFORT, zh));
  report_html__effort_bars(r, &sb);
  sb_puts(&sb, "</section>\n</div>\n");

  /* summary */
  sb_printf(&sb, "<h2>%s</h2>\n<ul>\n", report_l(zh, "Executive Summary", "执行摘要"));
  if (zh) sb_printf(&sb, "<li>总体可行性：<span class=\"verdict\">%s</span></li>\n", verdict_zh(r->verdict));
  else sb_printf(&sb, "<li>Overall feasibility: <span class=\"verdict\">%s (%s)</span></li>\n", verdict_zh(r->verdict),
                 verdict_en(r->verdict));
  sb_printf(&sb, report_l(zh, "<li>Estimated effort: %s 周 (weeks); %s person-days</li>\n", "<li>预估工作量：%s 周（%s 人日）</li>\n"),
            effort_weeks_str(r->half_weeks, b1, sizeof b1), effort_days_str(r->effort.total, b2, sizeof b2));
  sb_puts(&sb, report_l(zh, "<li>Blockers: ", "<li>阻塞项："));
  if (!r->blockers.len) sb_puts(&sb, report_l(zh, "none", "无"));
  for (size_t i = 0; i < r->blockers.len; i++) {
    const ReportGroup *g = &r->groups.items[r->blockers.items[i]];
    if (i) sb_puts(&sb, "; ");
    report_html__label(&sb, g);
    sb_puts(&sb, " (");
    report_html__loc(&sb, report_group_site(r, g));
    sb_puts(&sb, ")");
  }
  sb_puts(&sb, "</li>\n");
  for (size_t i = 0; i < r->verdict_reasons.len; i++) {
    sb_puts(&sb, report_l(zh, "<li>Why: ", "<li>判定依据："));
    report_html__esc(&sb, r->verdict_reasons.items[i]);
    sb_puts(&sb, "</li>\n");
  }
  sb_printf(&sb, report_l(zh, "<li>Recommended route: %s</li>\n", "<li>推荐路线：%s</li>\n"), report_route_name(r->route, zh));
  if (r->n_test_findings)
    sb_printf(&sb, report_l(zh, "<li>Test and benchmark code: %zu findings, not listed (tests/, benchmarks/, test_* functions, self-test blocks)</li>\n",
                            "<li>测试与基准代码：%zu 个发现，未列出（tests/、benchmarks/、test_* 函数、自测代码块）</li>\n"),
              r->n_test_findings);
  sb_printf(&sb, report_l(zh, "<li>Target: Atlas %s, CANN ", "<li>目标环境：Atlas %s，CANN "), r->chip);
  report_html__esc(&sb, r->cann);
  sb_puts(&sb, ", torch ");
  report_html__esc(&sb, r->torch);
  sb_puts(&sb, " + torch_npu ");
  report_html__esc(&sb, r->torch_npu);
  sb_puts(&sb, "</li>\n</ul>\n");

  /* matrix */
  sb_printf(&sb, "<h2>%s</h2>\n<table><tr><th>%s</th>", report_l(zh, "Dependency Matrix (per task phase)", "依赖矩阵（按任务阶段）"),
            report_l(zh, "Dependency", "依赖"));
  for (size_t p = 0; p < r->phases.len; p++) {
    sb_puts(&sb, "<th>");
    report_html__esc(&sb, r->phases.items[p].name);
    sb_puts(&sb, "</th>");
  }
  sb_printf(&sb, "<th>%s</th><th>%s</th></tr>\n", report_l(zh, "Replacement", "替代方案"), report_l(zh, "Effort", "工作量"));
  size_t folded = 0;
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    if (g->centidays == 0 && !g->blocker) { /* costs nothing, blocks nothing: one line below */
      folded++;
      continue;
    }
    sb_puts(&sb, "<tr><td>");
    report_html__label(&sb, g);
    sb_printf(&sb, " [%s] <span class=\"p%d\">%s</span></td>", g->rule->code, (int)g->prio, report_priority_name(g->prio, zh));
    for (size_t p = 0; p < r->phases.len; p++) sb_puts(&sb, (g->phases & ((uint64_t)1 << p)) ? "<td>✔</td>" : "<td>—</td>");
    sb_puts(&sb, "<td>");
    report_html__repl(r, &sb, g->replacement);
    sb_printf(&sb, "</td><td>%s %s</td></tr>\n", effort_days_str(g->centidays, b1, sizeof b1), report_l(zh, "d", "人日"));
  }
  sb_puts(&sb, "</table>\n");
  if (folded) {
    sb_puts(&sb, "<p>");
    sb_printf(&sb, kb_text(KBT_FOLDED_ROWS, zh), folded);
    size_t shown = 0;
    for (size_t gi = 0; gi < r->groups.len && shown < 12; gi++) {
      const ReportGroup *g = &r->groups.items[gi];
      if (g->centidays != 0 || g->blocker) continue;
      if (shown++) sb_puts(&sb, ", ");
      report_html__label(&sb, g);
    }
    if (folded > shown) sb_printf(&sb, report_l(zh, " and %zu more", " 等另外 %zu 项"), folded - shown);
    sb_puts(&sb, "</p>\n");
  }
  sb_printf(&sb, "<h3>%s</h3>\n<ul>\n", report_l(zh, "Task Phases and Entry Points", "任务阶段与入口"));
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    sb_puts(&sb, "<li><strong>");
    report_html__esc(&sb, ph->name);
    sb_printf(&sb, "</strong> — %s %zu %s", report_l(zh, "reaches", "到达"), ph->n_reached, report_l(zh, "files", "个文件"));
    for (size_t e = 0; e < ph->entries.len && e < 8; e++) {
      sb_puts(&sb, e ? "; " : ": ");
      report_html__code(&sb, ph->entries.items[e]);
      if (e < ph->how.len) {
        sb_puts(&sb, " (");
        report_html__esc(&sb, ph->how.items[e]);
        sb_puts(&sb, ")");
      }
    }
    if (ph->entries.len > 8) sb_printf(&sb, report_l(zh, " and %zu more", " 等另外 %zu 个"), ph->entries.len - 8);
    sb_puts(&sb, "</li>\n");
  }
  if (r->tooling.len) {
    sb_printf(&sb, "<li>%s: ", kb_text(KBT_TOOLING, zh));
    for (size_t t = 0; t < r->tooling.len && t < 12; t++) {
      if (t) sb_puts(&sb, "; ");
      report_html__esc(&sb, r->tooling.items[t]);
    }
    if (r->tooling.len > 12) sb_printf(&sb, report_l(zh, " and %zu more", " 等另外 %zu 个"), r->tooling.len - 12);
    sb_puts(&sb, "</li>\n");
  }
  sb_puts(&sb, "</ul>\n");
  sb_printf(&sb, "<h3>%s</h3>\n", report_l(zh, "Minimal Migration Set per Phase", "各阶段最小迁移集"));
  report_html__bars(r, &sb);
  sb_puts(&sb, "<ul>\n");
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    sb_puts(&sb, "<li><strong>");
    report_html__esc(&sb, ph->name);
    sb_printf(&sb, report_l(zh, "</strong>: %zu items in %zu files, %s person-days (%s 周)", "</strong>：%zu 项，%zu 个文件，%s 人日（%s 周）"),
              ph->groups.len, ph->files.len, effort_days_str(ph->effort.total, b1, sizeof b1),
              effort_weeks_str(ph->half_weeks, b2, sizeof b2));
    for (size_t k = 0; k < ph->groups.len; k++) {
      sb_puts(&sb, k ? ", " : ": ");
      report_html__label(&sb, &r->groups.items[ph->groups.items[k]]);
    }
    sb_puts(&sb, "</li>\n");
  }
  sb_puts(&sb, "</ul>\n");

  /* findings */
  sb_printf(&sb, "<h2>%s</h2>\n", report_l(zh, "Detailed Findings (per domain)", "详细发现（按域）"));
  /* domain 1's compatibility matrix, then every finding in one filterable table */
  for (int d = 1; d <= 1; d++) {
    sb_printf(&sb, "<h3>%s</h3>\n", report_domain_title(d, zh));
    {
      sb_printf(&sb, "<p>%s</p>\n", report_l(zh, "Dependency compatibility matrix (compatible / needs replacement / unsupported / not involved):",
                                             "依赖兼容性矩阵（兼容 / 需替换 / 不支持 / 不涉及）："));
      if (r->compat.len) {
        sb_printf(&sb, "<table><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n", report_l(zh, "Dependency", "依赖"),
                  report_l(zh, "Declared in", "声明位置"), report_l(zh, "Status", "状态"), report_l(zh, "Phases", "阶段"),
                  report_l(zh, "Replacement", "替代方案"));
        for (size_t i = 0; i < r->compat.len; i++) {
          const ReportCompat *c = &r->compat.items[i];
          sb_puts(&sb, "<tr><td>");
          report_html__code(&sb, c->package);
          sb_puts(&sb, "</td><td>");
          report_html__code(&sb, c->declared);
          sb_printf(&sb, "</td><td>%s</td><td>%s</td><td>", report_compat_name(c->status, zh), report_priority_name(c->prio, zh));
          report_html__repl(r, &sb, c->replacement);
          sb_puts(&sb, "</td></tr>\n");
        }
        sb_puts(&sb, "</table>\n");
      } else {
        sb_printf(&sb, "<p>%s</p>\n", report_l(zh, "No NVIDIA-specific dependency is declared.", "未声明 NVIDIA 专属依赖。"));
      }
    }
  }
  report_html__findings(r, &sb);

  sb_printf(&sb, "<h3>%s</h3>\n<table><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
            report_l(zh, "CUDA Dependency Classes and Recommended Route", "CUDA 依赖分类与推荐路线"), report_l(zh, "Class", "类别"),
            report_l(zh, "Findings", "发现"), report_l(zh, "On task paths", "位于任务路径"), report_l(zh, "Matrix rows", "矩阵行"));
  for (int c = DEP_CLASS_FRAMEWORK; c <= DEP_CLASS_KERNEL; c++)
    sb_printf(&sb, "<tr><td>%s</td><td>%zu</td><td>%zu</td><td>%zu</td></tr>\n", report_class_name((DepClass)c, zh),
              r->classes[c].findings, r->classes[c].involved, r->classes[c].groups);
  sb_printf(&sb, "</table>\n<p><strong>%s%s</strong></p>\n<ul>\n", report_l(zh, "Recommended route: ", "推荐路线："),
            report_route_name(r->route, zh));
  for (size_t i = 0; i < r->route_reasons.len; i++) {
    sb_puts(&sb, "<li>");
    report_html__esc(&sb, r->route_reasons.items[i]);
    sb_puts(&sb, "</li>\n");
  }
  sb_puts(&sb, "</ul>\n");
  sb_printf(&sb, "<h3>%s</h3>\n<ul>\n", report_l(zh, "Blast Radius of Blockers", "阻塞项影响范围"));
  if (!r->blockers.len) sb_printf(&sb, "<li>%s</li>\n", report_l(zh, "No blockers.", "无阻塞项。"));
  for (size_t b = 0; b < r->blockers.len; b++) {
    size_t gi = r->blockers.items[b];
    const ReportGroup *g = &r->groups.items[gi];
    sb_puts(&sb, "<li>");
    report_html__label(&sb, g);
    sb_printf(&sb, " [%s] ", g->rule->code);
    report_html__loc(&sb, report_group_site(r, g));
    for (size_t x = 0; x < r->blast.len; x++) {
      if (r->blast.items[x].group != gi) continue;
      sb_puts(&sb, "<ul>\n");
      for (size_t w = 0; w < r->blast.items[x].wrappers.len; w++) {
        const ReportWrapper *wr = &r->blast.items[x].wrappers.items[w];
        sb_puts(&sb, "<li>");
        sb_puts(&sb, report_l(zh, "wrapped by ", "封装函数 "));
        report_html__code(&sb, wr->symbol);
        char *loc = xasprintf("%s:%u", wr->path, wr->line);
        sb_puts(&sb, " (");
        report_html__code(&sb, loc);
        free(loc);
        sb_puts(&sb, report_l(zh, "); reached from: ", ")；调用位置："));
        if (!wr->callers.len) sb_puts(&sb, "—");
        for (size_t c = 0; c < wr->callers.len; c++) {
          const ReportSite *s = &wr->callers.items[c];
          char *sl = xasprintf("%s:%u", s->path, s->line);
          if (c) sb_puts(&sb, ", ");
          report_html__code(&sb, sl);
          free(sl);
          if (s->function) {
            sb_puts(&sb, " ");
            report_html__code(&sb, s->function);
          }
        }
        if (wr->more) sb_printf(&sb, " (+%zu)", wr->more);
        sb_puts(&sb, "</li>\n");
      }
      sb_puts(&sb, "</ul>\n");
    }
    sb_puts(&sb, "</li>\n");
  }
  sb_puts(&sb, "</ul>\n");

  /* roadmap, risks, checklist, effort */
  sb_printf(&sb, "<h2>%s</h2>\n<ol>\n", report_l(zh, "Migration Roadmap", "迁移路线图"));
  for (size_t i = 0; i < r->roadmap.len; i++) {
    const ReportStep *s = &r->roadmap.items[i];
    sb_puts(&sb, "<li><strong>");
    report_html__esc(&sb, s->title);
    sb_puts(&sb, "</strong><ul>\n");
    for (size_t k = 0; k < s->lines.len; k++) {
      sb_puts(&sb, "<li>");
      report_html__esc(&sb, s->lines.items[k].text);
      for (size_t j = 0; j < s->lines.items[k].items.len; j++) {
        sb_puts(&sb, j ? ", " : " (");
        report_html__loc(&sb, &r->items.items[s->lines.items[k].items.items[j]]);
        if (j + 1 == s->lines.items[k].items.len) sb_puts(&sb, ")");
      }
      sb_puts(&sb, "</li>\n");
    }
    sb_puts(&sb, "</ul></li>\n");
  }
  sb_puts(&sb, "</ol>\n");
  sb_printf(&sb, "<h2>%s</h2>\n<table><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n", report_l(zh, "Risk Matrix", "风险矩阵"),
            report_l(zh, "Risk", "风险"), report_l(zh, "Likelihood", "可能性"), report_l(zh, "Impact", "影响"),
            report_l(zh, "Mitigation", "缓解措施"));
  for (size_t i = 0; i < r->risks.len; i++) {
    const ReportRisk *k = &r->risks.items[i];
    sb_puts(&sb, "<tr><td>");
    report_html__esc(&sb, k->risk);
    sb_printf(&sb, "</td><td>%s</td><td>%s</td><td>", report_level_name(k->likelihood, zh), report_level_name(k->impact, zh));
    report_html__esc(&sb, k->mitigation);
    sb_puts(&sb, "</td></tr>\n");
  }
  sb_puts(&sb, "</table>\n");
  sb_printf(&sb, "<h2>%s</h2>\n<ul>\n", report_l(zh, "Acceptance Checklist", "验收清单"));
  for (size_t i = 0; i < r->checklist.len; i++) {
    const ReportCheck *c = &r->checklist.items[i];
    sb_puts(&sb, "<li>&#9744; <strong>");
    report_html__esc(&sb, c->area);
    sb_puts(&sb, "</strong>: ");
    report_html__esc(&sb, c->item);
    sb_puts(&sb, " — ");
    report_html__esc(&sb, c->threshold);
    sb_puts(&sb, "</li>\n");
  }
  sb_puts(&sb, "</ul>\n");
  sb_printf(&sb, "<h2>%s</h2>\n", report_l(zh, "Effort Computation", "工作量计算"));
  report_html__pie(r, &sb);
  sb_printf(&sb, "<table><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n", report_l(zh, "Item", "项目"),
            report_l(zh, "Unit", "单位"), report_l(zh, "Rate (d)", "单价（人日）"), report_l(zh, "Count", "数量"),
            report_l(zh, "Person-days", "人日"));
  size_t nr;
  const EffortRate *rates = effort_rates(&nr);
  for (size_t k = 0; k < nr; k++) {
    const EffortLine *l = &r->effort.lines[k];
    if (rates[k].unit == EFFORT_UNIT_NONE || !l->units) continue;
    sb_printf(&sb, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%zu</td><td>%s</td></tr>\n",
              report_l(zh, rates[k].label_en, rates[k].label_zh), report_l(zh, rates[k].unit_en, rates[k].unit_zh),
              effort_days_str(rates[k].centidays, b1, sizeof b1), l->units, effort_days_str(l->centidays, b2, sizeof b2));
  }
  sb_printf(&sb, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%zu</td><td>", report_l(zh, "Validation run", "验证运行"),
            report_l(zh, "per phase", "每个阶段"), effort_days_str(EFFORT_PHASE_VALIDATION_CD, b1, sizeof b1), r->effort.n_phases);
  sb_printf(&sb, "%s</td></tr>\n", effort_days_str(r->effort.validation, b2, sizeof b2));
  sb_printf(&sb, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>", report_l(zh, "Environment setup", "环境搭建"),
            report_l(zh, "once", "一次"), effort_days_str(EFFORT_ENVIRONMENT_CD, b1, sizeof b1), r->effort.environment ? 1 : 0);
  sb_printf(&sb, "%s</td></tr>\n", effort_days_str(r->effort.environment, b2, sizeof b2));
  sb_printf(&sb, "<tr><th>%s</th><th></th><th></th><th></th><th>%s</th></tr>\n</table>\n", report_l(zh, "Total", "合计"),
            effort_days_str(r->effort.total, b1, sizeof b1));
  sb_printf(&sb, report_l(zh, "<p>%s person-days ÷ 5 days per week, rounded up to the half week = <strong>%s 周 (weeks)</strong>.</p>\n",
                          "<p>%s 人日 ÷ 每周 5 天，向上取整到半周 = <strong>%s 周</strong>。</p>\n"),
            effort_days_str(r->effort.total, b1, sizeof b1), effort_weeks_str(r->half_weeks, b2, sizeof b2));
  if (r->notes.len) {
    sb_printf(&sb, "<h2>%s</h2>\n<ul>\n", report_l(zh, "Analysis Notes", "分析说明"));
    for (size_t i = 0; i < r->notes.len; i++) {
      sb_puts(&sb, "<li>");
      report_html__esc(&sb, r->notes.items[i]);
      sb_puts(&sb, "</li>\n");
    }
    sb_puts(&sb, "</ul>\n");
  }
  if (r->patterns.len) {
    sb_printf(&sb, "<h2>%s</h2>\n<p>%s</p>\n", kb_text(KBT_APPENDIX_TITLE, zh) + 3, kb_text(KBT_APPENDIX_INTRO, zh));
    for (size_t i = 0; i < r->patterns.len; i++) {
      sb_printf(&sb, "<h4 id=\"pattern-%zu\">P%zu</h4>\n<pre>", i + 1, i + 1);
      report_html__esc(&sb, r->patterns.items[i]);
      sb_puts(&sb, "</pre>\n");
    }
  }
  sb_puts(&sb, report_html__script);
  sb_puts(&sb, "</body>\n</html>\n");
  if (len) *len = sb.len;
  return sb_steal(&sb);
}
