/* sarif: SARIF 2.1.0 for `check --format sarif`, shaped for GitHub code
 * scanning: one run whose tool.driver.rules hold every rule that has a
 * finding (id, name, descriptions, help text and Markdown, helpUri,
 * default level, properties), and one result per finding with a location
 * relative to %SRCROOT% (columns in Unicode code points), the fix as
 * artifactChanges when the finding has one, and a partial fingerprint that
 * survives lines moving. */
#include "server/cli/output.h"
#include "server/cli/cli.h"
#include "server/cli/rulesdoc.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SARIF_INFO_URI "https://github.com/ascend-lsp/ascend-lsp"

static const char *sarif__level(Severity s) {
  switch (s) {
  case SEV_ERROR: return "error";
  case SEV_WARNING: return "warning";
  default: return "note";
  }
}

/* Percent-encodes what may not stand in a URI path (RFC 3986 pchar plus
 * '/'): spaces, '%', '#', '?', non-ASCII bytes. Caller frees. */
static char *sarif__uri_path(const char *p) {
  static const char hex[] = "0123456789ABCDEF";
  StrBuf sb;
  sb_init(&sb);
  for (const unsigned char *s = (const unsigned char *)p; *s; s++) {
    bool plain = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                 strchr("-._~/!$&'()*+,;=:@", *s);
    if (plain) {
      sb_putc(&sb, (char)*s);
    } else {
      sb_putc(&sb, '%');
      sb_putc(&sb, hex[*s >> 4]);
      sb_putc(&sb, hex[*s & 15]);
    }
  }
  return sb_steal(&sb);
}

/* The directory the workspace's paths are relative to: its root when the
 * files were found under it (paths do not repeat the root), else the
 * current directory. Absolute, with a trailing slash, as a file: URI. */
static char *sarif__srcroot(const Workspace *ws) {
  const char *base = output_base(ws);
  char buf[PATH_MAX];
  if (!realpath(base, buf)) return NULL;
  char *enc = sarif__uri_path(buf);
  char *uri = xasprintf("file://%s%s", enc, strcmp(buf, "/") == 0 ? "" : "/");
  free(enc);
  return uri;
}

static cJSON *sarif__text(const char *s) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "text", s);
  return o;
}

/* The highest confidence among the rule's rows (detectors: High). */
static Confidence sarif__rule_confidence(const KbRule *r, const AnalyzeOptions *opt) {
  size_t n;
  const KbEntry *e = kb_entries(&n);
  Confidence best = CONF_LOW;
  bool any = false;
  for (size_t i = 0; i < n + opt->n_user_entries; i++) {
    const KbEntry *x = i < n ? &e[i] : &opt->user_entries[i - n];
    if (strcmp(x->code, r->code) != 0) continue;
    if (!any || x->confidence < best) best = x->confidence;
    any = true;
  }
  return any ? best : CONF_HIGH;
}

static cJSON *sarif__rule(const KbRule *r, const AnalyzeOptions *opt) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "id", r->code);
  cJSON_AddStringToObject(o, "name", r->name);
  cJSON_AddItemToObject(o, "shortDescription", sarif__text(r->title_en));
  cJSON_AddItemToObject(o, "fullDescription", sarif__text(r->why_en));
  char *text = rulesdoc_rule_text(r, opt->user_entries, opt->n_user_entries);
  char *md = rulesdoc_rule_markdown(r, opt->user_entries, opt->n_user_entries);
  cJSON *help = cJSON_AddObjectToObject(o, "help");
  cJSON_AddStringToObject(help, "text", text);
  cJSON_AddStringToObject(help, "markdown", md);
  free(text);
  free(md);
  char *url = rulesdoc_url(r);
  cJSON_AddStringToObject(o, "helpUri", url);
  free(url);
  cJSON *dc = cJSON_AddObjectToObject(o, "defaultConfiguration");
  cJSON_AddStringToObject(dc, "level", sarif__level(r->severity));
  cJSON *props = cJSON_AddObjectToObject(o, "properties");
  int d = kb_domain(r->code);
  cJSON_AddStringToObject(props, "domain", rulesdoc_domain_name(d, false));
  Confidence c = sarif__rule_confidence(r, opt);
  cJSON_AddStringToObject(props, "confidence", confidence_name(c));
  cJSON_AddStringToObject(props, "precision", c == CONF_HIGH ? "high" : c == CONF_MEDIUM ? "medium" : "low");
  cJSON_AddStringToObject(props, "problem.severity", r->severity == SEV_ERROR     ? "error"
                                                     : r->severity == SEV_WARNING ? "warning"
                                                                                  : "recommendation");
  cJSON *tags = cJSON_AddArrayToObject(props, "tags");
  cJSON_AddItemToArray(tags, cJSON_CreateString("ascend"));
  cJSON_AddItemToArray(tags, cJSON_CreateString("portability"));
  char *dom = xasprintf("domain-%d", d);
  cJSON_AddItemToArray(tags, cJSON_CreateString(dom));
  free(dom);
  return o;
}

static cJSON *sarif__region(uint32_t sr, uint32_t sc, uint32_t er, uint32_t ec) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "startLine", sr + 1);
  cJSON_AddNumberToObject(o, "startColumn", sc + 1);
  cJSON_AddNumberToObject(o, "endLine", er + 1);
  cJSON_AddNumberToObject(o, "endColumn", ec + 1);
  return o;
}

static cJSON *sarif__artifact(const char *path) {
  cJSON *o = cJSON_CreateObject();
  char *enc = sarif__uri_path(path);
  if (path[0] == '/') {
    char *uri = xasprintf("file://%s", enc);
    cJSON_AddStringToObject(o, "uri", uri);
    free(uri);
  } else {
    cJSON_AddStringToObject(o, "uri", enc);
    cJSON_AddStringToObject(o, "uriBaseId", "%SRCROOT%");
  }
  free(enc);
  return o;
}

static cJSON *sarif__fix(const Finding *f, const char *path) {
  cJSON *fix = cJSON_CreateObject();
  char *desc = f->replacement ? xasprintf("Replace with %s (%s fix)", f->replacement, f->fix == FIX_SAFE ? "safe" : "unsafe")
                              : xasprintf("Apply the %s fix", f->fix == FIX_SAFE ? "safe" : "unsafe");
  cJSON_AddItemToObject(fix, "description", sarif__text(desc));
  free(desc);
  cJSON *changes = cJSON_AddArrayToObject(fix, "artifactChanges");
  cJSON *change = cJSON_CreateObject();
  cJSON_AddItemToObject(change, "artifactLocation", sarif__artifact(path));
  cJSON *reps = cJSON_AddArrayToObject(change, "replacements");
  for (size_t i = 0; i < f->edits.len; i++) {
    const TextEdit *e = &f->edits.items[i];
    cJSON *rep = cJSON_CreateObject();
    cJSON_AddItemToObject(rep, "deletedRegion", sarif__region(e->start_row, e->start_char, e->end_row, e->end_char));
    cJSON_AddItemToObject(rep, "insertedContent", sarif__text(e->text));
    cJSON_AddItemToArray(reps, rep);
  }
  cJSON_AddItemToArray(changes, change);
  return fix;
}

/* A fingerprint that does not move with the line: the code, the file, the
 * construct and which occurrence of it this is in the file. */
static char *sarif__fingerprint(const WsFile *wf, size_t k) {
  const Finding *f = &wf->findings.items[k];
  size_t nth = 0;
  for (size_t i = 0; i < k; i++) {
    const Finding *g = &wf->findings.items[i];
    if (g->rule == f->rule && strcmp(g->subject, f->subject) == 0) nth++;
  }
  char *key = xasprintf("%s\x1f%s\x1f%s\x1f%zu", f->rule->code, wf->path, f->subject, nth);
  char *fp = xasprintf("%016llx", (unsigned long long)ws_hash(key, strlen(key)));
  free(key);
  return fp;
}

static cJSON *sarif__result(const WsFile *wf, size_t k, int rule_index) {
  const Finding *f = &wf->findings.items[k];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "ruleId", f->rule->code);
  cJSON_AddNumberToObject(o, "ruleIndex", rule_index);
  cJSON_AddStringToObject(o, "level", sarif__level(f->severity));
  cJSON_AddItemToObject(o, "message", sarif__text(f->message));
  cJSON *locs = cJSON_AddArrayToObject(o, "locations");
  cJSON *loc = cJSON_CreateObject();
  cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
  cJSON_AddItemToObject(phys, "artifactLocation", sarif__artifact(wf->path));
  cJSON_AddItemToObject(phys, "region", sarif__region(f->start_row, f->start_char, f->end_row, f->end_char));
  cJSON_AddItemToArray(locs, loc);
  char *fp = sarif__fingerprint(wf, k);
  cJSON *fps = cJSON_AddObjectToObject(o, "partialFingerprints");
  cJSON_AddStringToObject(fps, "ascendLsp/v1", fp);
  free(fp);
  if (f->fix != FIX_NONE && f->edits.len) {
    cJSON *fixes = cJSON_AddArrayToObject(o, "fixes");
    cJSON_AddItemToArray(fixes, sarif__fix(f, wf->path));
  }
  cJSON *props = cJSON_AddObjectToObject(o, "properties");
  cJSON_AddStringToObject(props, "confidence", confidence_name(f->confidence));
  if (f->replacement) cJSON_AddStringToObject(props, "replacement", f->replacement);
  cJSON_AddStringToObject(props, "messageZh", f->message_zh);
  cJSON_AddStringToObject(props, "fix", f->fix == FIX_SAFE ? "safe" : f->fix == FIX_UNSAFE ? "unsafe" : "none");
  cJSON_AddBoolToObject(props, "guarded", f->guarded);
  cJSON_AddBoolToObject(props, "transferCovered", f->transfer_covered);
  return o;
}

static int sarif__rule_cmp(const void *a, const void *b) {
  return strcmp((*(const KbRule *const *)a)->code, (*(const KbRule *const *)b)->code);
}

typedef Array(const KbRule *) SarifRules;

/* Every rule with a finding, sorted by code (the results' ruleIndex). */
static void sarif__used_rules(const Workspace *ws, SarifRules *out) {
  for (size_t i = 0; i < ws->files.len; i++)
    for (size_t k = 0; k < ws->files.items[i].findings.len; k++) {
      const KbRule *r = ws->files.items[i].findings.items[k].rule;
      bool have = false;
      for (size_t j = 0; j < out->len && !have; j++) have = out->items[j] == r;
      if (!have) array_push(out, r);
    }
  if (out->len > 1) qsort(out->items, out->len, sizeof *out->items, sarif__rule_cmp);
}

static int sarif__index(const KbRule *const *rules, size_t n, const KbRule *r) {
  for (size_t i = 0; i < n; i++)
    if (rules[i] == r) return (int)i;
  return -1;
}

cJSON *output_sarif(const Workspace *ws, const AnalyzeOptions *opt) {
  static const AnalyzeOptions none = {0};
  if (!opt) opt = &none;
  cJSON *log = cJSON_CreateObject();
  cJSON_AddStringToObject(log, "$schema", SARIF_SCHEMA);
  cJSON_AddStringToObject(log, "version", "2.1.0");
  cJSON *runs = cJSON_AddArrayToObject(log, "runs");
  cJSON *run = cJSON_CreateObject();
  cJSON_AddItemToArray(runs, run);
  cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
  cJSON_AddStringToObject(driver, "name", "ascend-lsp");
  cJSON_AddStringToObject(driver, "version", ASCEND_LSP_VERSION);
  cJSON_AddStringToObject(driver, "semanticVersion", ASCEND_LSP_VERSION);
  cJSON_AddStringToObject(driver, "informationUri", SARIF_INFO_URI);
  SarifRules used = {0};
  sarif__used_rules(ws, &used);
  cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
  for (size_t i = 0; i < used.len; i++) cJSON_AddItemToArray(rules, sarif__rule(used.items[i], opt));
  char *root = sarif__srcroot(ws);
  if (root) {
    cJSON *bases = cJSON_AddObjectToObject(run, "originalUriBaseIds");
    cJSON *src = cJSON_AddObjectToObject(bases, "%SRCROOT%");
    cJSON_AddStringToObject(src, "uri", root);
    free(root);
  }
  cJSON *results = cJSON_AddArrayToObject(run, "results");
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *wf = &ws->files.items[i];
    for (size_t k = 0; k < wf->findings.len; k++)
      cJSON_AddItemToArray(results, sarif__result(wf, k, sarif__index(used.items, used.len, wf->findings.items[k].rule)));
  }
  /* what was not analyzed, so a reader of the log knows */
  cJSON *inv = cJSON_CreateObject();
  cJSON_AddBoolToObject(inv, "executionSuccessful", true);
  if (ws->notes.len) {
    cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
    for (size_t i = 0; i < ws->notes.len; i++) {
      cJSON *n = cJSON_CreateObject();
      cJSON_AddStringToObject(n, "level", "note");
      cJSON_AddItemToObject(n, "message", sarif__text(ws->notes.items[i]));
      cJSON_AddItemToArray(notes, n);
    }
  }
  cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
  cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");
  array_free(&used);
  return log;
}
