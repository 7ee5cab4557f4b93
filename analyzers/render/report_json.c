/* report_json: the report as data, in the shape docs/report-schema.json
 * documents. Written with a small streaming writer rather than cJSON so
 * that analyzers/ stays free of the protocol layer's JSON library; numbers
 * of person-days come from exact centidays. */
#include "analyzers/project/report_priv.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------
 * Report_json - Private: writer
 * ------------------------------------------------------------------------- */

typedef struct {
  StrBuf sb;
  int depth;
  bool first[64]; /* per depth: no member written yet */
} JsonW;

static void report_json__indent(JsonW *w) {
  sb_putc(&w->sb, '\n');
  for (int i = 0; i < w->depth; i++) sb_puts(&w->sb, "  ");
}

static void report_json__escape(StrBuf *sb, const char *s) {
  sb_putc(sb, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': sb_puts(sb, "\\\""); break;
    case '\\': sb_puts(sb, "\\\\"); break;
    case '\n': sb_puts(sb, "\\n"); break;
    case '\r': sb_puts(sb, "\\r"); break;
    case '\t': sb_puts(sb, "\\t"); break;
    default:
      if (*p < 0x20) sb_printf(sb, "\\u%04x", *p);
      else sb_putc(sb, (char)*p);
    }
  }
  sb_putc(sb, '"');
}

/* Starts a member: separator, indentation and the key (NULL in arrays). */
static void report_json__member(JsonW *w, const char *key) {
  if (w->depth > 0) {
    if (!w->first[w->depth]) sb_putc(&w->sb, ',');
    w->first[w->depth] = false;
    report_json__indent(w);
  }
  if (key) {
    report_json__escape(&w->sb, key);
    sb_puts(&w->sb, ": ");
  }
}

static void report_json__open(JsonW *w, const char *key, char c) {
  report_json__member(w, key);
  sb_putc(&w->sb, c);
  if (w->depth < 63) w->depth++;
  w->first[w->depth] = true;
}

static void report_json__close(JsonW *w, char c) {
  bool empty = w->first[w->depth];
  if (w->depth > 0) w->depth--;
  if (!empty) report_json__indent(w);
  sb_putc(&w->sb, c);
}

static void report_json__str(JsonW *w, const char *key, const char *v) {
  report_json__member(w, key);
  if (v) report_json__escape(&w->sb, v);
  else sb_puts(&w->sb, "null");
}

static void report_json__int(JsonW *w, const char *key, long long v) {
  report_json__member(w, key);
  sb_printf(&w->sb, "%lld", v);
}

static void report_json__bool(JsonW *w, const char *key, bool v) {
  report_json__member(w, key);
  sb_puts(&w->sb, v ? "true" : "false");
}

static void report_json__days(JsonW *w, const char *key, int64_t cd) {
  char b[32];
  report_json__member(w, key);
  sb_puts(&w->sb, effort_days_str(cd, b, sizeof b));
}

static void report_json__weeks(JsonW *w, const char *key, int64_t hw) {
  char b[32];
  report_json__member(w, key);
  sb_puts(&w->sb, effort_weeks_str(hw, b, sizeof b));
}

static void report_json__phase_names(JsonW *w, const Report *r, const char *key, uint64_t mask) {
  report_json__open(w, key, '[');
  for (size_t p = 0; p < r->phases.len; p++)
    if (mask & ((uint64_t)1 << p)) report_json__str(w, NULL, r->phases.items[p].name);
  report_json__close(w, ']');
}

/* ---------------------------------------------------------------------------
 * Report_json - Private: sections
 * ------------------------------------------------------------------------- */

static const char *report_json__phase_kind(PhaseKind k) {
  switch (k) {
  case PHASE_TRAINING: return "training";
  case PHASE_INFERENCE: return "inference";
  case PHASE_EVALUATION: return "evaluation";
  case PHASE_API: return "public-api";
  case PHASE_CUSTOM: break;
  }
  return "custom";
}

static const char *report_json__level(ReportLevel l) {
  return l == LEVEL_HIGH ? "high" : l == LEVEL_MEDIUM ? "medium" : "low";
}

static void report_json__finding(JsonW *w, const Report *r, size_t i) {
  const ReportItem *it = &r->items.items[i];
  const Finding *f = it->f;
  report_json__open(w, NULL, '{');
  report_json__int(w, "index", (long long)i);
  report_json__str(w, "code", f->rule->code);
  report_json__str(w, "rule", f->rule->name);
  report_json__str(w, "severity", severity_name(f->severity));
  report_json__int(w, "domain", it->domain);
  report_json__str(w, "file", it->path);
  report_json__int(w, "line", it->line);
  report_json__int(w, "column", it->column);
  report_json__int(w, "end_line", (long long)f->end_row + 1);
  report_json__int(w, "end_column", (long long)f->end_char + 1);
  report_json__str(w, "subject", f->subject);
  report_json__str(w, "message", r->zh && f->message_zh ? f->message_zh : f->message);
  report_json__str(w, "replacement", f->replacement && *f->replacement ? f->replacement : NULL);
  report_json__str(w, "confidence", confidence_name(f->confidence));
  report_json__str(w, "detail", f->detail && *f->detail ? f->detail : NULL);
  report_json__bool(w, "guarded", f->guarded);
  report_json__bool(w, "transfer_covered", f->transfer_covered);
  report_json__bool(w, "inference_only", f->inference_only);
  report_json__str(w, "effort_kind", effort_name(f->rule->effort));
  report_json__str(w, "dependency_class", report_class_id(f->rule->dep_class));
  report_json__str(w, "priority", report_priority_id(it->prio));
  report_json__phase_names(w, r, "phases", it->phases);
  report_json__int(w, "group", (long long)it->group);
  report_json__close(w, '}');
}

/* The kernel inventory by family, and the replacement patterns. */
static void report_json__families(JsonW *w, const Report *r) {
  report_json__open(w, "kernel_families", '[');
  for (size_t k = 0; k < r->families.len; k++) {
    const ReportFamily *f = &r->families.items[k];
    report_json__open(w, NULL, '{');
    report_json__str(w, "family", f->key);
    report_json__str(w, "function", f->what ? f->what : "");
    report_json__str(w, "replacement", f->op ? f->op : "");
    report_json__open(w, "kernels", '[');
    for (size_t i = 0; i < f->kernels.len; i++) report_json__str(w, NULL, f->kernels.items[i]);
    report_json__close(w, ']');
    report_json__int(w, "lines", (long long)f->lines);
    report_json__int(w, "instantiation_files", (long long)f->inst_files);
    report_json__int(w, "group", (long long)f->group);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__int(w, "kernel_lines", (long long)r->kernel_lines);
  report_json__int(w, "code_lines", (long long)r->code_lines);
  report_json__open(w, "replacement_patterns", '[');
  for (size_t i = 0; i < r->patterns.len; i++) report_json__str(w, NULL, r->patterns.items[i]);
  report_json__close(w, ']');
}

static void report_json__summary(JsonW *w, const Report *r) {
  report_json__open(w, "summary", '{');
  report_json__str(w, "verdict", verdict_zh(r->verdict));
  report_json__str(w, "verdict_en", verdict_en(r->verdict));
  report_json__str(w, "verdict_id", verdict_id(r->verdict));
  report_json__weeks(w, "weeks", r->half_weeks);
  report_json__days(w, "person_days", r->effort.total);
  {
    int64_t lo, hi;
    effort_range(r->effort.total, &lo, &hi);
    report_json__open(w, "range", '{');
    report_json__days(w, "person_days_low", lo);
    report_json__days(w, "person_days_high", hi);
    report_json__weeks(w, "weeks_low", effort_half_weeks(lo));
    report_json__weeks(w, "weeks_high", effort_half_weeks(hi));
    report_json__close(w, '}');
  }
  report_json__bool(w, "kernel_product", r->kernel_product);
  report_json__open(w, "reasons", '[');
  for (size_t i = 0; i < r->verdict_reasons.len; i++) report_json__str(w, NULL, r->verdict_reasons.items[i]);
  report_json__close(w, ']');
  report_json__open(w, "blockers", '[');
  for (size_t i = 0; i < r->blockers.len; i++) {
    const ReportGroup *g = &r->groups.items[r->blockers.items[i]];
    const ReportItem *it = report_group_site(r, g);
    report_json__open(w, NULL, '{');
    report_json__int(w, "group", (long long)r->blockers.items[i]);
    report_json__str(w, "dependency", g->label);
    report_json__str(w, "code", g->rule->code);
    report_json__str(w, "file", it->path);
    report_json__int(w, "line", it->line);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__str(w, "route", r->route == ROUTE_A ? "A" : r->route == ROUTE_B ? "B" : "C");
  report_json__open(w, "scope", '{');
  report_json__int(w, "files", (long long)r->n_files);
  report_json__int(w, "lines", (long long)r->n_lines);
  report_json__int(w, "findings", (long long)r->items.len);
  report_json__int(w, "test_code_findings", (long long)r->n_test_findings);
  report_json__int(w, "errors", (long long)r->by_severity[SEV_ERROR]);
  report_json__int(w, "warnings", (long long)r->by_severity[SEV_WARNING]);
  report_json__int(w, "info", (long long)r->by_severity[SEV_INFO]);
  report_json__int(w, "hints", (long long)r->by_severity[SEV_HINT]);
  report_json__int(w, "p0", (long long)r->n_p0);
  report_json__int(w, "p1", (long long)r->n_p1);
  report_json__int(w, "not_involved", (long long)r->n_none);
  report_json__int(w, "guarded", (long long)r->n_guarded);
  report_json__close(w, '}');
  report_json__close(w, '}');
}

static void report_json__phases(JsonW *w, const Report *r) {
  report_json__bool(w, "implicit_phase", r->implicit_phase);
  report_json__bool(w, "library", r->library);
  report_json__open(w, "tooling", '[');
  for (size_t t = 0; t < r->tooling.len; t++) report_json__str(w, NULL, r->tooling.items[t]);
  report_json__close(w, ']');
  report_json__open(w, "phases", '[');
  for (size_t p = 0; p < r->phases.len; p++) {
    const ReportPhase *ph = &r->phases.items[p];
    report_json__open(w, NULL, '{');
    report_json__int(w, "index", (long long)p);
    report_json__str(w, "name", ph->name);
    report_json__str(w, "kind", report_json__phase_kind(ph->kind));
    report_json__open(w, "entries", '[');
    for (size_t e = 0; e < ph->entries.len; e++) report_json__str(w, NULL, ph->entries.items[e]);
    report_json__close(w, ']');
    report_json__open(w, "derivation", '[');
    for (size_t e = 0; e < ph->how.len; e++) report_json__str(w, NULL, ph->how.items[e]);
    report_json__close(w, ']');
    report_json__open(w, "tasks", '[');
    for (size_t e = 0; e < ph->tasks.len; e++) report_json__str(w, NULL, ph->tasks.items[e]);
    report_json__close(w, ']');
    report_json__bool(w, "multi_device", ph->multi_device);
    report_json__int(w, "files_reached", (long long)ph->n_reached);
    report_json__open(w, "reached", '[');
    for (size_t k = 0; k < ph->reached.len; k++) report_json__str(w, NULL, ph->reached.items[k]);
    report_json__close(w, ']');
    report_json__open(w, "minimal_set", '{');
    report_json__open(w, "groups", '[');
    for (size_t k = 0; k < ph->groups.len; k++) report_json__int(w, NULL, (long long)ph->groups.items[k]);
    report_json__close(w, ']');
    report_json__open(w, "files", '[');
    for (size_t k = 0; k < ph->files.len; k++) {
      const char *path = NULL;
      for (size_t i = 0; i < r->items.len && !path; i++)
        if (r->items.items[i].file == ph->files.items[k]) path = r->items.items[i].path;
      report_json__str(w, NULL, path);
    }
    report_json__close(w, ']');
    report_json__days(w, "person_days", ph->effort.total);
    report_json__weeks(w, "weeks", ph->half_weeks);
    report_json__close(w, '}');
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
}

static void report_json__matrix(JsonW *w, const Report *r) {
  report_json__open(w, "matrix", '[');
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    const ReportGroup *g = &r->groups.items[gi];
    report_json__open(w, NULL, '{');
    report_json__int(w, "index", (long long)gi);
    report_json__str(w, "dependency", g->label);
    report_json__bool(w, "dependency_is_code", g->label_is_code);
    report_json__str(w, "code", g->rule->code);
    report_json__str(w, "title", r->zh ? g->rule->title_zh : g->rule->title_en);
    report_json__int(w, "domain", g->domain);
    report_json__str(w, "severity", severity_name(g->severity));
    report_json__str(w, "priority", report_priority_id(g->prio));
    report_json__phase_names(w, r, "phases", g->phases);
    report_json__str(w, "replacement", g->replacement);
    report_json__bool(w, "guarded", g->guarded);
    report_json__bool(w, "blocker", g->blocker);
    report_json__str(w, "level", verdict_id(g->level));
    report_json__days(w, "person_days", g->centidays);
    report_json__open(w, "findings", '[');
    for (size_t k = 0; k < g->items.len; k++) report_json__int(w, NULL, (long long)g->items.items[k]);
    report_json__close(w, ']');
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
}

static void report_json__domains(JsonW *w, const Report *r) {
  report_json__open(w, "domains", '[');
  for (int d = 1; d <= 7; d++) {
    size_t n = 0;
    for (size_t i = 0; i < r->items.len; i++)
      if (r->items.items[i].domain == d) n++;
    report_json__open(w, NULL, '{');
    report_json__int(w, "domain", d);
    report_json__str(w, "title", report_domain_title(d, r->zh));
    report_json__int(w, "findings", (long long)n);
    report_json__days(w, "person_days", r->domain_cd[d]);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__open(w, "findings", '[');
  for (size_t i = 0; i < r->items.len; i++) report_json__finding(w, r, i);
  report_json__close(w, ']');
  report_json__open(w, "compatibility", '[');
  for (size_t i = 0; i < r->compat.len; i++) {
    const ReportCompat *c = &r->compat.items[i];
    report_json__open(w, NULL, '{');
    report_json__str(w, "package", c->package);
    report_json__str(w, "declared", c->declared);
    report_json__str(w, "status", report_compat_id(c->status));
    report_json__str(w, "declared_status", report_compat_id(c->declared_status));
    report_json__str(w, "priority", report_priority_id(c->prio));
    report_json__phase_names(w, r, "phases", c->phases);
    report_json__str(w, "replacement", c->replacement);
    report_json__int(w, "finding", (long long)c->item);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
}

static void report_json__classes_route(JsonW *w, const Report *r) {
  report_json__open(w, "dependency_classes", '[');
  for (int c = DEP_CLASS_FRAMEWORK; c <= DEP_CLASS_KERNEL; c++) {
    report_json__open(w, NULL, '{');
    report_json__str(w, "id", report_class_id((DepClass)c));
    report_json__str(w, "name", report_class_name((DepClass)c, r->zh));
    report_json__int(w, "findings", (long long)r->classes[c].findings);
    report_json__int(w, "involved", (long long)r->classes[c].involved);
    report_json__int(w, "groups", (long long)r->classes[c].groups);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__open(w, "route", '{');
  report_json__str(w, "id", r->route == ROUTE_A ? "A" : r->route == ROUTE_B ? "B" : "C");
  report_json__str(w, "name", report_route_name(r->route, r->zh));
  report_json__open(w, "reasons", '[');
  for (size_t i = 0; i < r->route_reasons.len; i++) report_json__str(w, NULL, r->route_reasons.items[i]);
  report_json__close(w, ']');
  report_json__close(w, '}');
}

static void report_json__blast(JsonW *w, const Report *r) {
  report_json__open(w, "blast_radius", '[');
  for (size_t b = 0; b < r->blast.len; b++) {
    const ReportBlast *bl = &r->blast.items[b];
    report_json__open(w, NULL, '{');
    report_json__int(w, "group", (long long)bl->group);
    report_json__str(w, "dependency", r->groups.items[bl->group].label);
    report_json__open(w, "wrappers", '[');
    for (size_t k = 0; k < bl->wrappers.len; k++) {
      const ReportWrapper *wr = &bl->wrappers.items[k];
      report_json__open(w, NULL, '{');
      report_json__str(w, "symbol", wr->symbol);
      report_json__str(w, "file", wr->path);
      report_json__int(w, "line", wr->line);
      report_json__open(w, "callers", '[');
      for (size_t c = 0; c < wr->callers.len; c++) {
        const ReportSite *s = &wr->callers.items[c];
        report_json__open(w, NULL, '{');
        report_json__str(w, "file", s->path);
        report_json__int(w, "line", s->line);
        report_json__str(w, "function", s->function);
        report_json__phase_names(w, r, "phases", s->phases);
        report_json__close(w, '}');
      }
      report_json__close(w, ']');
      report_json__int(w, "more_callers", (long long)wr->more);
      report_json__close(w, '}');
    }
    report_json__close(w, ']');
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
}

static void report_json__plan(JsonW *w, const Report *r) {
  report_json__open(w, "roadmap", '[');
  for (size_t i = 0; i < r->roadmap.len; i++) {
    const ReportStep *s = &r->roadmap.items[i];
    report_json__open(w, NULL, '{');
    report_json__int(w, "step", (long long)i + 1);
    report_json__str(w, "title", s->title);
    report_json__open(w, "items", '[');
    for (size_t k = 0; k < s->lines.len; k++) {
      const ReportLine *l = &s->lines.items[k];
      report_json__open(w, NULL, '{');
      report_json__str(w, "text", l->text);
      report_json__open(w, "locations", '[');
      for (size_t j = 0; j < l->items.len; j++) {
        const ReportItem *it = &r->items.items[l->items.items[j]];
        char *loc = xasprintf("%s:%u", it->path, it->line);
        report_json__str(w, NULL, loc);
        free(loc);
      }
      report_json__close(w, ']');
      report_json__close(w, '}');
    }
    report_json__close(w, ']');
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__open(w, "risks", '[');
  for (size_t i = 0; i < r->risks.len; i++) {
    const ReportRisk *k = &r->risks.items[i];
    report_json__open(w, NULL, '{');
    report_json__str(w, "risk", k->risk);
    report_json__str(w, "likelihood", report_json__level(k->likelihood));
    report_json__str(w, "impact", report_json__level(k->impact));
    report_json__str(w, "mitigation", k->mitigation);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__open(w, "checklist", '[');
  for (size_t i = 0; i < r->checklist.len; i++) {
    const ReportCheck *c = &r->checklist.items[i];
    report_json__open(w, NULL, '{');
    report_json__str(w, "area", c->area);
    report_json__str(w, "item", c->item);
    report_json__str(w, "threshold", c->threshold);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
}

static void report_json__effort(JsonW *w, const Report *r) {
  report_json__open(w, "effort", '{');
  report_json__int(w, "guarded_percent", EFFORT_GUARDED_PERCENT);
  report_json__open(w, "rows", '[');
  size_t n;
  const EffortRate *rates = effort_rates(&n);
  for (size_t k = 0; k < n; k++) {
    const EffortLine *l = &r->effort.lines[k];
    const EffortRate *rt = &rates[k];
    if (rt->unit == EFFORT_UNIT_NONE || l->units == 0) continue;
    report_json__open(w, NULL, '{');
    report_json__str(w, "kind", effort_name(rt->kind));
    report_json__str(w, "label", r->zh ? rt->label_zh : rt->label_en);
    report_json__str(w, "unit", r->zh ? rt->unit_zh : rt->unit_en);
    report_json__days(w, "rate", rt->centidays);
    report_json__days(w, "rate_per_100_lines", rt->centidays_per_100);
    report_json__int(w, "count", (long long)l->units);
    report_json__int(w, "guarded", (long long)l->guarded_units);
    report_json__int(w, "lines", (long long)l->lines);
    report_json__days(w, "person_days", l->centidays);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__open(w, "validation", '{');
  report_json__days(w, "per_phase", EFFORT_PHASE_VALIDATION_CD);
  report_json__int(w, "phases", (long long)r->effort.n_phases);
  report_json__days(w, "person_days", r->effort.validation);
  report_json__close(w, '}');
  report_json__days(w, "environment", r->effort.environment);
  report_json__days(w, "findings_person_days", r->effort.findings);
  report_json__days(w, "total_person_days", r->effort.total);
  report_json__weeks(w, "weeks", r->half_weeks);
  report_json__days(w, "not_involved_person_days", r->optional.total);
  report_json__open(w, "by_domain", '[');
  for (int d = 0; d < 8; d++) {
    if (r->domain_cd[d] <= 0) continue;
    report_json__open(w, NULL, '{');
    report_json__int(w, "domain", d);
    report_json__days(w, "person_days", r->domain_cd[d]);
    report_json__close(w, '}');
  }
  report_json__close(w, ']');
  report_json__close(w, '}');
}

char *report_json(const Report *r, size_t *len) {
  JsonW w;
  memset(&w, 0, sizeof w);
  sb_init(&w.sb);
  report_json__open(&w, NULL, '{');
  report_json__int(&w, "schema_version", 1);
  report_json__str(&w, "generator", "ascend-lsp");
  report_json__str(&w, "lang", r->zh ? "zh" : "en");
  report_json__str(&w, "project", r->project);
  report_json__open(&w, "target", '{');
  report_json__str(&w, "chip", r->chip);
  report_json__str(&w, "cann", r->cann);
  report_json__str(&w, "torch", r->torch);
  report_json__str(&w, "torch_npu", r->torch_npu);
  report_json__bool(&w, "mindiesd", r->mindiesd);
  report_json__close(&w, '}');
  report_json__summary(&w, r);
  report_json__phases(&w, r);
  report_json__matrix(&w, r);
  report_json__families(&w, r);
  report_json__domains(&w, r);
  report_json__classes_route(&w, r);
  report_json__blast(&w, r);
  report_json__plan(&w, r);
  report_json__effort(&w, r);
  report_json__open(&w, "notes", '[');
  for (size_t i = 0; i < r->notes.len; i++) report_json__str(&w, NULL, r->notes.items[i]);
  report_json__close(&w, ']');
  report_json__close(&w, '}');
  sb_putc(&w.sb, '\n');
  if (len) *len = w.sb.len;
  return sb_steal(&w.sb);
}
